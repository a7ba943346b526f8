// What every nestris-ai program answers to --version: the release and the cartridge code inside.
#pragma once

#include <string>

namespace nestris::tools {

// "0.1.0, build 93E17E1D": the version alone does not say which cartridge code is inside; the
// build id does (the patched ROM's signature and `identify` show it).
std::string version_text();

}  // namespace nestris::tools

#include "tools/harness/version.hpp"

#include "base/checksums.hpp"
#include "patcher/cart_image.hpp"
#include "patcher/patch.hpp"

namespace nestris::tools {

std::string version_text() { return std::string(NESTRIS_VERSION) + ", build " + crc32_hex(cart_build_id(shipped_cart())); }

}  // namespace nestris::tools

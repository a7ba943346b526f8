// Runs an external program and collects its exit status and output (stdout and stderr merged).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace nestris {

struct ProcessResult {
    int exit_code = -1;  // -1: could not be started
    std::string output;
};

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::filesystem::path& working_dir = {});

}  // namespace nestris

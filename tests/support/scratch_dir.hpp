// A fresh, empty directory under the system temp dir, removed with everything in it when the
// object goes (a test that passes, fails or throws leaves nothing behind). Every test that needs
// a file or a directory on disk makes it in one of these.
#pragma once

#include <algorithm>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace nestris::test {

class ScratchDir {
public:
    // The directory is named nestris_test_<name>_<random>; a name already taken is never reused.
    explicit ScratchDir(const std::string& name) {
        namespace fs = std::filesystem;
        std::random_device random;
        for (int attempt = 0; attempt < 100; ++attempt) {
            const fs::path p = fs::temp_directory_path() / ("nestris_test_" + name + "_" + std::to_string(random()));
            std::error_code ec;
            if (fs::create_directory(p, ec)) {
                path_ = p;
                return;
            }
        }
        throw std::runtime_error("cannot make a scratch directory for " + name + " in the temp directory");
    }
    ~ScratchDir() {
        namespace fs = std::filesystem;
        std::error_code ec;
        // Tests take permissions away (unwritable directories): give them back to remove all.
        fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
        std::error_code walk;
        for (auto it = fs::recursive_directory_iterator(path_, fs::directory_options::skip_permission_denied, walk);
             !walk && it != fs::recursive_directory_iterator(); it.increment(walk))
            if (it->is_directory(ec) && !it->is_symlink(ec))
                fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
    // Names of everything in the directory (to prove nothing, not even a temp file, was left).
    std::vector<std::string> listing() const {
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(path_)) names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }

private:
    std::filesystem::path path_;
};

}  // namespace nestris::test

#include "file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

namespace nestris {
namespace fs = std::filesystem;
namespace {

std::string in_quotes(const fs::path& p) { return "'" + p.string() + "'"; }

std::string with_errno(const std::string& what) { return what + ": " + std::strerror(errno); }

// Removes the temporary file unless released: every early exit cleans up.
class TempFile {
public:
    TempFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile() {
        close();
        if (!path_.empty()) ::unlink(path_.c_str());
    }
    int fd() const { return fd_; }
    const std::string& path() const { return path_; }
    void close() {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }
    void forget_fd() { fd_ = -1; }  // closed by the caller, who checked the result
    void release() { path_.clear(); }

private:
    std::string path_;
    int fd_;
};

void write_all(int fd, std::span<const uint8_t> bytes, const std::string& path) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw FileError(with_errno("cannot write " + in_quotes(path)));
        bytes = bytes.subspan(static_cast<size_t>(n));
    }
}

}  // namespace

std::vector<uint8_t> read_file(const fs::path& path, uint64_t max_bytes) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec && ec != std::errc::no_such_file_or_directory)
        throw FileError("cannot read " + in_quotes(path) + ": " + ec.message());
    if (!fs::exists(status)) throw FileError("cannot read " + in_quotes(path) + ": no such file");
    if (fs::is_directory(status)) throw FileError("cannot read " + in_quotes(path) + ": it is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw FileError(with_errno("cannot open " + in_quotes(path)));
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    if (size < 0) throw FileError("cannot read " + in_quotes(path) + ": not a regular file");
    if (static_cast<uint64_t>(size) > max_bytes)
        throw FileError(in_quotes(path) + " is " + std::to_string(size) + " bytes, more than the " +
                        std::to_string(max_bytes) + " this command reads: not the file you meant?");
    in.seekg(0);
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.read(reinterpret_cast<char*>(bytes.data()), size);
    if (in.gcount() != size) throw FileError("cannot read " + in_quotes(path) + ": it changed while being read");
    return bytes;
}

void write_file_atomically(const fs::path& target, std::span<const uint8_t> bytes, const OnDiskCheck& check) {
    std::error_code ec;
    if (fs::is_directory(target, ec)) throw FileError("cannot write " + in_quotes(target) + ": it is a directory");
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec)) throw FileError("cannot write " + in_quotes(target) + ": no directory " + in_quotes(dir));

    // Same directory, so the rename is atomic (one file system); a dot name keeps it out of sight.
    std::string hidden = ".";
    hidden += target.filename().string();
    hidden += ".XXXXXX";  // mkstemp fills in the X's
    std::string name = (dir / hidden).string();
    const int fd = ::mkstemp(name.data());
    if (fd < 0) throw FileError(with_errno("cannot create a file in " + in_quotes(dir)));
    TempFile temp(name, fd);

    struct stat existing {};
    const mode_t mode = ::stat(target.c_str(), &existing) == 0 ? existing.st_mode & 07777 : 0644;
    if (::fchmod(temp.fd(), mode) != 0) throw FileError(with_errno("cannot set the mode of " + in_quotes(name)));
    write_all(temp.fd(), bytes, name);
    if (::fsync(temp.fd()) != 0) throw FileError(with_errno("cannot flush " + in_quotes(name) + " to disk"));
    const int closed = ::close(temp.fd());
    temp.forget_fd();
    if (closed != 0) throw FileError(with_errno("cannot close " + in_quotes(name)));

    // Check what the disk holds, not what we meant to write.
    const std::vector<uint8_t> on_disk = read_file(name, bytes.size() + 1);
    if (on_disk.size() != bytes.size() || !std::equal(on_disk.begin(), on_disk.end(), bytes.begin()))
        throw FileError("the file written to " + in_quotes(name) + " reads back differently; nothing was published");
    if (check) check(on_disk);

    if (::rename(name.c_str(), target.c_str()) != 0)
        throw FileError(with_errno("cannot rename " + in_quotes(name) + " to " + in_quotes(target)));
    temp.release();
    // Make the rename itself durable; failing here cannot undo it, so it is best effort.
    const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dir_fd >= 0) {
        ::fsync(dir_fd);
        ::close(dir_fd);
    }
}

}  // namespace nestris

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
    // The kind of file first, from its status: opening a FIFO would block until a writer comes.
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec && ec != std::errc::no_such_file_or_directory)
        throw FileError("cannot read " + in_quotes(path) + ": " + ec.message());
    if (!fs::exists(status)) throw FileError("cannot read " + in_quotes(path) + ": no such file");
    if (fs::is_directory(status)) throw FileError("cannot read " + in_quotes(path) + ": it is a directory");
    if (!fs::is_regular_file(status))
        throw FileError("cannot read " + in_quotes(path) + ": not a regular file (a device, a FIFO or a socket)");
    const uintmax_t listed = fs::file_size(path, ec);
    if (!ec && listed > max_bytes) throw FileError(in_quotes(path) + " is " + std::to_string(listed) + " bytes, more than the " +
                                                   std::to_string(max_bytes) + " this command reads: not the file you meant?");
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) throw FileError(with_errno("cannot open " + in_quotes(path)));
    TempFile guard("", fd);  // closes it on every exit
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        throw FileError("cannot read " + in_quotes(path) + ": not a regular file");
    // Read up to one byte past the limit, whatever the size said: the file may grow meanwhile.
    std::vector<uint8_t> bytes;
    uint8_t buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw FileError(with_errno("cannot read " + in_quotes(path)));
        if (n == 0) break;
        bytes.insert(bytes.end(), buffer, buffer + n);
        if (bytes.size() > max_bytes)
            throw FileError(in_quotes(path) + " is more than the " + std::to_string(max_bytes) +
                            " bytes this command reads: not the file you meant?");
    }
    return bytes;
}

std::string read_text_file(const fs::path& path, uint64_t max_bytes) {
    const std::vector<uint8_t> bytes = read_file(path, max_bytes);
    return std::string(bytes.begin(), bytes.end());
}

namespace {

// The file a path names, its symbolic links followed even when the file is not there yet (a
// link to a file still to be written), which weakly_canonical() leaves unresolved.
fs::path followed(const fs::path& given) {
    std::error_code ec;
    fs::path p = given;
    for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {  // 40: the kernel's limit
        const fs::path to = fs::read_symlink(p, ec);
        if (ec) break;
        p = to.is_absolute() ? to : p.parent_path() / to;
    }
    const fs::path canonical = fs::weakly_canonical(p, ec);
    return ec ? p : canonical;
}

}  // namespace

bool same_file(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
    return followed(a) == followed(b);
}

fs::path check_output(const fs::path& given, std::span<const fs::path> inputs) {
    std::error_code ec;
    // A link is followed: its file is replaced, the link stays.
    const fs::path target = fs::is_symlink(fs::symlink_status(given, ec)) ? followed(given) : given;
    const fs::file_status status = fs::status(target, ec);
    if (fs::is_directory(status)) throw FileError("cannot write " + in_quotes(given) + ": it is a directory");
    if (fs::exists(status) && !fs::is_regular_file(status))
        throw FileError("cannot write " + in_quotes(given) + ": it is not a regular file (a device or a FIFO), "
                        "and it would be replaced by one");
    // Read-only by its mode (which root's access() would overlook) or to this user.
    constexpr fs::perms kAnyWrite = fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;
    if (fs::exists(status) &&
        ((status.permissions() & kAnyWrite) == fs::perms::none || ::access(target.c_str(), W_OK) != 0))
        throw FileError("cannot write " + in_quotes(given) + ": it is read-only");
    for (const fs::path& input : inputs)
        if (same_file(target, input))
            throw FileError("cannot write " + in_quotes(given) + ": it is an input of this command (" +
                            in_quotes(input) + "); write to another file");
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec)) throw FileError("cannot write " + in_quotes(target) + ": no directory " + in_quotes(dir));
    return target;
}

void write_file_atomically(const fs::path& given, std::span<const uint8_t> bytes, const OnDiskCheck& check,
                           std::span<const fs::path> inputs) {
    const fs::path target = check_output(given, inputs);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");

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

void write_text_atomically(const fs::path& target, const std::string& text, std::span<const fs::path> inputs) {
    write_file_atomically(target, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()), {}, inputs);
}

}  // namespace nestris

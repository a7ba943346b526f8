#include "base/file_io.hpp"

#include "base/command_runner.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

namespace nestris {
namespace fs = std::filesystem;
namespace {

std::string in_quotes(const fs::path& p) { return "'" + p.string() + "'"; }

std::string with_errno(const std::string& what) { return what + ": " + std::strerror(errno); }

// Closes a file descriptor on every exit.
class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }

private:
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

// ---- The running command's inputs (CommandInputs) ----

struct InputRecord {
    std::mutex mutex;  // commands read files from worker threads too
    bool open = false;
    std::vector<fs::path> read, updated;
};

InputRecord& input_record() {
    static InputRecord record;
    return record;
}

void record_input(const fs::path& file) {
    if (file.empty()) return;
    InputRecord& r = input_record();
    const std::lock_guard lock(r.mutex);
    if (r.open && std::find(r.read.begin(), r.read.end(), file) == r.read.end()) r.read.push_back(file);
}

// The inputs an output must not be written onto: those given plus those the command read, less
// the ones it replaces on purpose.
std::vector<fs::path> protected_inputs(std::span<const fs::path> given) {
    std::vector<fs::path> all(given.begin(), given.end());
    InputRecord& r = input_record();
    const std::lock_guard lock(r.mutex);
    for (const fs::path& input : r.read)
        if (std::none_of(r.updated.begin(), r.updated.end(), [&](const fs::path& u) { return same_file(u, input); }))
            all.push_back(input);
    return all;
}

// ---- Live temporary files, for the signal handler ----
// A fixed table the handler can walk without allocating or locking: a slot is free (0), being
// filled (1) or names a live temporary file (2).

constexpr int kTempSlots = 64;
struct TempSlot {
    std::atomic<int> state{0};
    char path[PATH_MAX];
};
TempSlot temp_slots[kTempSlots];
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slots' state");

// Returns the slot, or -1 when the table is full or the path too long (then a signal leaves
// the file behind; nothing else is lost).
int register_temporary(const std::string& path) {
    if (path.size() >= PATH_MAX) return -1;
    for (int i = 0; i < kTempSlots; ++i) {
        int expected = 0;
        if (!temp_slots[i].state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(temp_slots[i].path, path.c_str(), path.size() + 1);
        temp_slots[i].state.store(2);
        return i;
    }
    return -1;
}

void unregister_temporary(int slot) {
    if (slot >= 0) temp_slots[slot].state.store(0);
}

// The cleanup signals held back while a temporary file is created and registered, so that none
// exists unknown to the handler.
class SignalsHeld {
public:
    SignalsHeld() {
        sigset_t set;
        sigemptyset(&set);
        for (const int signo : kCleanupSignals) sigaddset(&set, signo);
        pthread_sigmask(SIG_BLOCK, &set, &old_);
    }
    ~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
    SignalsHeld(const SignalsHeld&) = delete;
    SignalsHeld& operator=(const SignalsHeld&) = delete;

private:
    sigset_t old_;
};

// FNV-1a: what was written is compared with what is read back without keeping either.
constexpr uint64_t kHashStart = 0xcbf29ce484222325ULL;
uint64_t hash_bytes(uint64_t h, std::span<const uint8_t> bytes) {
    for (const uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ULL;
    return h;
}

fs::path directory_of(const fs::path& file) { return file.has_parent_path() ? file.parent_path() : fs::path("."); }

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
    // Absolute first: weakly_canonical leaves a relative path whose first part does not exist as
    // it is ("o.wav"), while "./o.wav" becomes absolute, and the two would not compare equal.
    const fs::path absolute = fs::absolute(p, ec);
    if (ec) return p;
    const fs::path canonical = fs::weakly_canonical(absolute, ec);
    return ec ? absolute : canonical;
}

// The length of the line being read, across the pieces a file is read in; refuses a line longer
// than the bound as soon as its bytes are there (a file of one long line is not read to its end).
class LineBound {
public:
    LineBound(const fs::path& path, uint64_t max_line) : path_(path), max_(max_line) {}
    void see(const uint8_t* bytes, size_t n) {
        if (max_ == 0) return;  // binary: no lines
        for (const uint8_t* end = bytes + n; bytes != end;) {
            const auto* newline = static_cast<const uint8_t*>(std::memchr(bytes, '\n', static_cast<size_t>(end - bytes)));
            length_ += static_cast<uint64_t>((newline ? newline : end) - bytes);
            if (length_ > max_)
                throw FileError(in_quotes(path_) + ": line " + std::to_string(line_) + " is longer than " +
                                std::to_string(max_) + " bytes, the most a line of text may hold here: not the file you meant?");
            if (!newline) break;
            bytes = newline + 1;
            length_ = 0;
            ++line_;
        }
    }

private:
    const fs::path& path_;
    uint64_t max_, length_ = 0, line_ = 1;
};

// Reads a regular file whole (see read_file); `record` says whether it is one of the command's
// inputs (the writer's own read-back is not); `max_line` bounds its lines (0: none, binary).
std::vector<uint8_t> read_regular_file(const fs::path& path, uint64_t max_bytes, bool record, uint64_t max_line = 0) {
    if (record) record_input(path);
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
    const Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0) throw FileError(with_errno("cannot open " + in_quotes(path)));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        throw FileError("cannot read " + in_quotes(path) + ": not a regular file");
    // Read up to one byte past the limit, whatever the size said: the file may grow meanwhile.
    std::vector<uint8_t> bytes;
    LineBound lines(path, max_line);
    uint8_t buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw FileError(with_errno("cannot read " + in_quotes(path)));
        if (n == 0) break;
        lines.see(buffer, static_cast<size_t>(n));
        bytes.insert(bytes.end(), buffer, buffer + n);
        if (bytes.size() > max_bytes)
            throw FileError(in_quotes(path) + " is more than the " + std::to_string(max_bytes) +
                            " bytes this command reads: not the file you meant?");
    }
    return bytes;
}

// The bytes of `block` (read from `at` on) as the stream had them: the patches' bytes put back
// where the file must hold their new ones. False if the file holds something else there.
template <class Patches>
bool as_streamed(std::span<uint8_t> block, uint64_t at, const Patches& patches) {
    for (const auto& p : patches)  // (they do not overlap: OutputFile::write_at)
        for (uint64_t i = 0; i < p.now.size(); ++i) {
            const uint64_t where = p.offset + i;
            if (where < at || where >= at + block.size()) continue;
            if (block[where - at] != p.now[i]) return false;
            block[where - at] = p.streamed[i];
        }
    return true;
}

// The size and hash of a file, read in pieces (an output may be far larger than memory), as the
// stream wrote it (see as_streamed); a patched byte that reads back wrong makes the hash wrong.
template <class Patches>
std::pair<uint64_t, uint64_t> size_and_hash(const std::string& path, const Patches& patches) {
    const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) throw FileError(with_errno("cannot read back " + in_quotes(path)));
    uint64_t size = 0, hash = kHashStart;
    std::vector<uint8_t> buffer(1 << 16);
    for (;;) {
        const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw FileError(with_errno("cannot read back " + in_quotes(path)));
        if (n == 0) break;
        const std::span<uint8_t> block(buffer.data(), static_cast<size_t>(n));
        if (!as_streamed(block, size, patches)) return {size, ~hash};
        size += static_cast<uint64_t>(n);
        hash = hash_bytes(hash, block);
    }
    return {size, hash};
}

}  // namespace

// ---- Reading ----

std::vector<uint8_t> read_file(const fs::path& path, uint64_t max_bytes) { return read_regular_file(path, max_bytes, true); }

std::string read_text_file(const fs::path& path, uint64_t max_bytes, uint64_t max_line) {
    const std::vector<uint8_t> bytes = read_regular_file(path, max_bytes, true, max_line);
    return std::string(bytes.begin(), bytes.end());
}

CommandInputs::CommandInputs() {
    InputRecord& r = input_record();
    const std::lock_guard lock(r.mutex);
    r.open = true;
    r.read.clear();
    r.updated.clear();
}

CommandInputs::~CommandInputs() {
    InputRecord& r = input_record();
    const std::lock_guard lock(r.mutex);
    r.open = false;
    r.read.clear();
    r.updated.clear();
}

void note_input(const fs::path& file) { record_input(file); }

void replaces_input(const fs::path& file) {
    InputRecord& r = input_record();
    const std::lock_guard lock(r.mutex);
    r.updated.push_back(file);
}

// ---- Checking an output ----

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
    if (ec && ec != std::errc::no_such_file_or_directory)
        throw FileError("cannot write " + in_quotes(given) + ": " + ec.message());
    if (fs::is_directory(status)) throw FileError("cannot write " + in_quotes(given) + ": it is a directory");
    if (fs::exists(status) && !fs::is_regular_file(status))
        throw FileError("cannot write " + in_quotes(given) + ": it is not a regular file (a device or a FIFO), "
                        "and it would be replaced by one");
    // Read-only by its mode (which root's access() would overlook) or to this user.
    constexpr fs::perms kAnyWrite = fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;
    if (fs::exists(status) &&
        ((status.permissions() & kAnyWrite) == fs::perms::none || ::access(target.c_str(), W_OK) != 0))
        throw FileError("cannot write " + in_quotes(given) + ": it is read-only");
    for (const fs::path& input : protected_inputs(inputs))
        if (same_file(target, input))
            throw FileError("cannot write " + in_quotes(given) + ": it is an input of this command (" +
                            in_quotes(input) + "); write to another file");
    const fs::path dir = directory_of(target);
    if (!fs::is_directory(dir, ec)) throw FileError("cannot write " + in_quotes(target) + ": no directory " + in_quotes(dir));
    return target;
}

void check_outputs(std::span<const fs::path> outputs) {
    std::vector<fs::path> seen;
    for (const fs::path& output : outputs) {
        if (output.empty()) continue;
        check_output(output);
        // Two outputs on one file is the command line's mistake, whatever the files: a usage error.
        for (const fs::path& other : seen)
            if (same_file(output, other))
                throw UsageError("cannot write " + in_quotes(output) + " twice: " + in_quotes(other) +
                                 " is the same file; give each output its own");
        seen.push_back(output);
    }
}

void check_outputs(std::initializer_list<fs::path> outputs) { check_outputs(std::span(outputs.begin(), outputs.size())); }

fs::path OutputSeries::file(uint64_t n) const {
    std::string digits = std::to_string(n);
    if (digits.size() < static_cast<size_t>(width)) digits.insert(0, static_cast<size_t>(width) - digits.size(), '0');
    return prefix + digits + suffix;
}

namespace {

// The series' number whose file `output` would be, if its name has the series' form there.
std::optional<uint64_t> number_in_series(const fs::path& output, const OutputSeries& series) {
    const fs::path pattern = followed(series.prefix + "0" + series.suffix);
    const fs::path file = followed(output);
    if (file.parent_path() != pattern.parent_path()) return std::nullopt;
    const std::string name = file.filename().string(), head = fs::path(series.prefix + "0").filename().string();
    const std::string start = head.substr(0, head.size() - 1);
    if (name.size() <= start.size() + series.suffix.size() || !name.starts_with(start) || !name.ends_with(series.suffix))
        return std::nullopt;
    const std::string digits = name.substr(start.size(), name.size() - start.size() - series.suffix.size());
    if (digits.size() > 19 || digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    const uint64_t n = std::stoull(digits);
    // Only the spelling the command writes (OUT-000010.png, not OUT-10.png) is the same file.
    if (series.file(n).filename() != fs::path(name)) return std::nullopt;
    return n;
}

}  // namespace

void check_outputs(std::span<const fs::path> outputs, const OutputSeries& series) {
    check_outputs(outputs);
    for (const fs::path& output : outputs) {
        if (output.empty()) continue;
        const std::optional<uint64_t> n = number_in_series(output, series);
        if (n && series.written(*n))
            throw UsageError("cannot write " + in_quotes(output) + " twice: it is " + series.what + " " +
                             std::to_string(*n) + " too; give each output its own");
    }
}

PublishedFiles::~PublishedFiles() {
    if (keep_) return;
    std::error_code ec;
    for (const fs::path& file : files_) fs::remove(file, ec);
    for (auto dir = made_.rbegin(); dir != made_.rend(); ++dir) fs::remove(*dir, ec);  // (only when empty)
}

void PublishedFiles::make_directory(const fs::path& dir) {
    std::vector<fs::path> missing;
    for (fs::path p = fs::absolute(dir); !p.empty() && !fs::exists(fs::symlink_status(p)); p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.parent_path()) break;
    }
    fs::create_directories(dir);
    const std::lock_guard lock(mutex_);
    made_.insert(made_.end(), missing.rbegin(), missing.rend());
}

void PublishedFiles::add(const fs::path& file) {
    const std::lock_guard lock(mutex_);
    files_.push_back(file);
}

void PublishedFiles::keep() { keep_ = true; }

std::string temporary_name(const fs::path& target) {
    const std::string name = target.filename().string();
    constexpr size_t kAround = 8;  // "." before, ".XXXXXX" after
    size_t keep = std::min(name.size(), static_cast<size_t>(NAME_MAX) - kAround);
    // Back off to the start of a UTF-8 character: the name stays readable.
    while (keep > 0 && keep < name.size() && (static_cast<unsigned char>(name[keep]) & 0xC0) == 0x80) --keep;
    std::string temp = ".";
    temp.append(name, 0, keep);
    return temp + ".XXXXXX";
}

void remove_temporary_files() noexcept {
    for (TempSlot& slot : temp_slots)
        if (slot.state.load() == 2) ::unlink(slot.path);
}

// ---- Writing ----

OutputFile::OutputFile(const fs::path& given, std::span<const fs::path> inputs)
    : given_(given), target_(check_output(given, inputs)), inputs_(inputs.begin(), inputs.end()), hash_(kHashStart) {
    buffer_.reserve(1 << 16);
    // Same directory, so the rename is atomic (one file system); a dot name keeps it out of sight.
    const fs::path dir = directory_of(target_);
    std::string name = (dir / temporary_name(target_)).string();
    int error = 0;
    {
        const SignalsHeld held;
        fd_ = ::mkstemp(name.data());
        error = errno;
        if (fd_ >= 0) {
            temp_ = name;
            slot_ = register_temporary(temp_);
        }
    }
    if (fd_ < 0) {
        errno = error;
        throw FileError(with_errno("cannot create a file in " + in_quotes(dir)));
    }
}

OutputFile::~OutputFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
    unregister_temporary(slot_);
}

void OutputFile::write(std::span<const uint8_t> bytes) {
    if (finished_) throw std::logic_error("OutputFile::write after finish");
    hash_ = hash_bytes(hash_, bytes);
    size_ += bytes.size();
    if (buffer_.size() + bytes.size() > buffer_.capacity()) flush_buffer();
    if (bytes.size() >= buffer_.capacity()) {
        write_all(fd_, bytes, temp_);
    } else {
        buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
    }
}

void OutputFile::write(std::string_view text) {
    write(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void OutputFile::flush_buffer() {
    write_all(fd_, buffer_, temp_);
    buffer_.clear();
}

void OutputFile::write_at(uint64_t offset, std::span<const uint8_t> bytes) {
    if (finished_) throw std::logic_error("OutputFile::write_at after finish");
    if (offset > size_ || bytes.size() > size_ - offset) throw std::logic_error("OutputFile::write_at past what was written");
    flush_buffer();
    for (const Patch& earlier : patches_)  // (each byte patched once: the check knows what the stream had)
        if (offset < earlier.offset + earlier.now.size() && earlier.offset < offset + bytes.size())
            throw std::logic_error("OutputFile::write_at over bytes written at before");
    // What the stream had there (the hash covers those), then the new bytes in their place.
    Patch patch{offset, std::vector<uint8_t>(bytes.size()), std::vector<uint8_t>(bytes.begin(), bytes.end())};
    const ssize_t got = ::pread(fd_, patch.streamed.data(), bytes.size(), static_cast<off_t>(offset));
    if (got != static_cast<ssize_t>(bytes.size())) throw FileError(with_errno("cannot read back " + in_quotes(temp_)));
    const ssize_t put = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (put != static_cast<ssize_t>(bytes.size())) throw FileError(with_errno("cannot write " + in_quotes(temp_)));
    patches_.push_back(std::move(patch));
}

void OutputFile::finish(const OnDiskCheck& check) {
    if (finished_) throw std::logic_error("OutputFile::finish twice");
    flush_buffer();
    struct stat existing {};
    const mode_t mode = ::stat(target_.c_str(), &existing) == 0 ? existing.st_mode & 07777 : 0644;
    if (::fchmod(fd_, mode) != 0) throw FileError(with_errno("cannot set the mode of " + in_quotes(temp_)));
    if (::fsync(fd_) != 0) throw FileError(with_errno("cannot flush " + in_quotes(temp_) + " to disk"));
    const int closed = ::close(fd_);
    fd_ = -1;
    if (closed != 0) throw FileError(with_errno("cannot close " + in_quotes(temp_)));

    // Check what the disk holds, not what we meant to write.
    const auto [size, hash] = size_and_hash(temp_, patches_);
    if (size != size_ || hash != hash_)
        throw FileError("the file written to " + in_quotes(temp_) + " reads back differently; nothing was published");
    if (check) check(read_regular_file(temp_, size_ + 1, false));
    // The command may have read more inputs since the file was opened.
    check_output(given_, inputs_);
    finished_ = true;
}

void OutputFile::publish() {
    if (!finished_ || committed_) throw std::logic_error("OutputFile::publish before finish, or twice");
    if (::rename(temp_.c_str(), target_.c_str()) != 0)
        throw FileError(with_errno("cannot rename " + in_quotes(temp_) + " to " + in_quotes(target_)));
    temp_.clear();  // published: nothing to remove (the handler's unlink of the old name finds nothing)
    unregister_temporary(slot_);
    slot_ = -1;
    committed_ = true;
    // Make the rename itself durable; failing here cannot undo it, so it is best effort.
    const Fd dir(::open(directory_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() >= 0) ::fsync(dir.get());
}

void OutputFile::commit(const OnDiskCheck& check) {
    if (committed_) throw std::logic_error("OutputFile::commit twice");
    finish(check);
    publish();
}

void commit_together(std::initializer_list<OutputFile*> outputs) {
    for (OutputFile* out : outputs)
        if (out) out->finish();
    std::vector<OutputFile*> published;
    try {
        for (OutputFile* out : outputs) {
            if (!out) continue;
            out->publish();
            published.push_back(out);
        }
    } catch (...) {
        for (const OutputFile* out : published) ::unlink(out->target().c_str());
        throw;
    }
}

void write_file_atomically(const fs::path& target, std::span<const uint8_t> bytes, const OnDiskCheck& check,
                           std::span<const fs::path> inputs) {
    OutputFile out(target, inputs);
    out.write(bytes);
    out.commit([&](std::span<const uint8_t> on_disk) {
        if (!std::equal(on_disk.begin(), on_disk.end(), bytes.begin(), bytes.end()))
            throw FileError("the file written for " + in_quotes(target) + " reads back differently; nothing was published");
        if (check) check(on_disk);
    });
}

void write_text_atomically(const fs::path& target, const std::string& text, std::span<const fs::path> inputs) {
    write_file_atomically(target, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()), {}, inputs);
}

}  // namespace nestris

// Reading and writing whole files the safe way: an output appears complete and checked, or not
// at all.
#pragma once

#include <signal.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nestris {

struct FileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Size limits per kind of input (a bigger file is the wrong file; reading it would only waste
// memory): ROMs, patches and program images; movies, labels, states and other text.
inline constexpr uint64_t kMaxBinaryInput = 16u << 20;
inline constexpr uint64_t kMaxTextInput = 64u << 20;
// The longest line a text input may hold, in bytes (its line end not counted). Every text the
// commands read is short lines (a movie's frame, a label, a weight, a state's vector: 1.4 KB at
// most in this repository); a file of one 64 MB line is the wrong file, and the parsers' work on
// such a line (500 MB and 12 s for a movie) is refused before it starts, after 64 KiB read.
inline constexpr uint64_t kMaxTextLine = 64u << 10;

// Reads a regular file whole. Checks before opening that it is one (a FIFO would block, a
// device would never end), refuses directories, devices, FIFOs and files over `max_bytes`.
std::vector<uint8_t> read_file(const std::filesystem::path& path, uint64_t max_bytes = kMaxBinaryInput);
// The same for text, and a line longer than `max_line` bytes is refused (FileError naming the
// line and the bound) as soon as it is read.
std::string read_text_file(const std::filesystem::path& path, uint64_t max_bytes = kMaxTextInput,
                           uint64_t max_line = kMaxTextLine);

// Called with the bytes as re-read from disk before they are published; throws to cancel.
using OnDiskCheck = std::function<void(std::span<const uint8_t> on_disk)>;

// ---- The command's inputs ----------------------------------------------------------------------
// An output must never destroy what the command read: a movie, a label file, a state. So while a
// command runs (the command runner opens a CommandInputs scope around every command and tool),
// every file read_file() reads is recorded as an input, and the writer refuses to write onto any
// of them (the same path, a hard link or a symbolic link to it). One mechanism for every command:
// an input read deep inside a library (a state file, a movie) is known without being passed on.
class CommandInputs {
public:
    CommandInputs();   // starts an empty record
    ~CommandInputs();  // ends it: outside a command, reading records nothing
    CommandInputs(const CommandInputs&) = delete;
    CommandInputs& operator=(const CommandInputs&) = delete;
};
// An input named on the command line that the command may not read (a label file nothing looks
// up): named, it must not be overwritten either. Empty paths are ignored.
void note_input(const std::filesystem::path& file);
// A command that updates one of its inputs on purpose (patch --in-place, nestris-tune's state)
// says so: that file alone may then be replaced.
void replaces_input(const std::filesystem::path& file);

// ---- The one writer ----------------------------------------------------------------------------
// An output written in pieces as it is produced (a trace of 10^8 instructions is never held in
// memory) and published whole: the bytes go to a temporary file in the target's directory; commit()
// flushes it to disk, reads it back and checks it, then renames it over the target. Destroyed
// without commit() (an error, an exception), the temporary file is removed and the target is
// untouched; on SIGINT or SIGTERM the command runner's handler removes it too
// (remove_temporary_files()).
// Refused at construction, before anything is written (FileError): see check_output().
// A new file gets mode 0644; an existing one keeps its mode.
class OutputFile {
public:
    explicit OutputFile(const std::filesystem::path& target, std::span<const std::filesystem::path> inputs = {});
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    void write(std::span<const uint8_t> bytes);
    void write(std::string_view text);
    // Overwrites bytes written before, from `offset` on (inside what was written, each byte at
    // most once): a header whose sizes are known only at the end (a WAV's), while the rest went
    // out as it was made. The read-back check covers them: the stream as written, then these
    // bytes in their place.
    void write_at(uint64_t offset, std::span<const uint8_t> bytes);
    uint64_t size() const { return size_; }
    const std::filesystem::path& target() const { return target_; }
    // Publishes the file: finish() then publish(). The bytes read back must be the bytes written
    // (their size and hash); `check`, if given, also sees them whole (for small outputs: a patch,
    // a ROM) and may throw.
    void commit(const OnDiskCheck& check = {});
    // The two halves of commit(), for outputs published together (commit_together): finish()
    // writes, flushes, reads back and checks everything, so that publish() is the rename alone.
    void finish(const OnDiskCheck& check = {});
    void publish();

private:
    void flush_buffer();

    // Bytes overwritten by write_at(): what the stream had there, and what the file has now.
    struct Patch {
        uint64_t offset;
        std::vector<uint8_t> streamed, now;
    };

    std::filesystem::path given_, target_;
    std::vector<std::filesystem::path> inputs_;
    std::string temp_;  // empty once published or removed
    int fd_ = -1, slot_ = -1;
    std::vector<uint8_t> buffer_;
    std::vector<Patch> patches_;
    uint64_t size_ = 0, hash_;
    bool finished_ = false, committed_ = false;
};

// Publishes several outputs of one command together, all or nothing: each is finished (written,
// read back and checked) before any is renamed into place, and if a rename still fails, the
// outputs this call already published are removed again (an old file they replaced is gone:
// none of the command's outputs is left half made). Outputs not finished are removed by their
// destructors as always. Null entries are outputs not asked for.
void commit_together(std::initializer_list<OutputFile*> outputs);

// Writes `bytes` through an OutputFile; the bytes read back must equal them exactly, then
// `check` runs on them. On any failure the target is untouched and FileError (or the check's
// exception) propagates.
void write_file_atomically(const std::filesystem::path& target, std::span<const uint8_t> bytes,
                           const OnDiskCheck& check = {},
                           std::span<const std::filesystem::path> inputs = {});
void write_text_atomically(const std::filesystem::path& target, const std::string& text,
                           std::span<const std::filesystem::path> inputs = {});

// What the writer refuses before it writes, checked on its own (FileError): a target that exists
// and is not a regular file (a device, a FIFO: it would be replaced by a file), a read-only
// target, a target in no directory, and a target that is one of `inputs` or of the running
// command's inputs (CommandInputs). A symbolic link is followed, even to a file not there yet:
// the file it names is written and the link stays. Returns that file. For a command that works
// long before its first write (nestris-tune, run-rom), so that a bad output is refused at once.
std::filesystem::path check_output(const std::filesystem::path& target,
                                   std::span<const std::filesystem::path> inputs = {});

// check_output() for each of a command's outputs (empty paths: not asked for), and no two of them
// the same file (the second would replace the first: a usage error, UsageError of
// command_runner.hpp, exit 2). Called before the command's work.
void check_outputs(std::initializer_list<std::filesystem::path> outputs);
void check_outputs(std::span<const std::filesystem::path> outputs);

// A numbered series of outputs, too many to pass to check_outputs one by one (play --png-every's
// OUT-000010.png, a screenshot every N frames; simulate --png-dir's DIR/game-7.png): number n's
// file is `prefix` n (zero-padded to `width` digits) `suffix`; `written(n)` says whether the
// command writes it; `what` names it in a refusal ("the screenshot of frame").
struct OutputSeries {
    std::string prefix, suffix;
    int width = 0;
    std::function<bool(uint64_t)> written;
    std::string what;
    std::filesystem::path file(uint64_t n) const;
};
// check_outputs(outputs), and none of them one of the series' files (the number its name would
// have is read off the name: no list is made): a usage error, as two outputs on one file.
void check_outputs(std::span<const std::filesystem::path> outputs, const OutputSeries& series);

// Outputs a command publishes one at a time as it runs (a screenshot every N frames, a picture a
// game): if the command fails before its end, those published so far are removed again (and the
// directory made for them, if it is left empty), so that it leaves all of its outputs or none.
// keep() when the command has succeeded. add() may be called from worker threads.
class PublishedFiles {
public:
    PublishedFiles() = default;
    ~PublishedFiles();
    PublishedFiles(const PublishedFiles&) = delete;
    PublishedFiles& operator=(const PublishedFiles&) = delete;
    // Makes `dir` (and its parents) if it is not there, to be removed again on failure.
    void make_directory(const std::filesystem::path& dir);
    void add(const std::filesystem::path& file);
    void keep();

private:
    std::mutex mutex_;
    std::vector<std::filesystem::path> files_, made_;
    bool keep_ = false;
};

// Whether two paths name the same file (links and relative paths resolved).
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

// The temporary file's name for `target` in its directory: ".NAME.XXXXXX" (mkstemp fills in the
// X's), NAME cut (at a UTF-8 character) so that the whole fits in NAME_MAX, as `target` does.
std::string temporary_name(const std::filesystem::path& target);

// The signals that end a command before its outputs are finished, so that their temporary files
// must go: an interrupt or a kill (INT, TERM), the terminal gone (HUP), quit (QUIT), the reader
// of a pipe gone (PIPE). The command runner handles them; temporary files are created with them
// held back.
inline constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};

// Removes every temporary file an OutputFile holds, as a signal handler may: async-signal-safe
// (unlink only, no allocation, no lock). The command runner calls it on SIGINT and SIGTERM.
void remove_temporary_files() noexcept;

}  // namespace nestris

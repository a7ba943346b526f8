// Reading and writing whole files the safe way: an output appears complete and checked, or not
// at all.
#pragma once

#include <signal.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
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

// Reads a regular file whole. Checks before opening that it is one (a FIFO would block, a
// device would never end), refuses directories, devices, FIFOs and files over `max_bytes`.
std::vector<uint8_t> read_file(const std::filesystem::path& path, uint64_t max_bytes = kMaxBinaryInput);
std::string read_text_file(const std::filesystem::path& path, uint64_t max_bytes = kMaxTextInput);

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
    // Publishes the file. The bytes read back must be the bytes written (their size and hash);
    // `check`, if given, also sees them whole (for small outputs: a patch, a ROM) and may throw.
    void commit(const OnDiskCheck& check = {});

private:
    void flush_buffer();

    std::filesystem::path given_, target_;
    std::vector<std::filesystem::path> inputs_;
    std::string temp_;  // empty once published or removed
    int fd_ = -1, slot_ = -1;
    std::vector<uint8_t> buffer_;
    uint64_t size_ = 0, hash_;
    bool committed_ = false;
};

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
// the same file (the second would replace the first). Called before the command's work.
void check_outputs(std::initializer_list<std::filesystem::path> outputs);

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

// Reading and writing whole files the safe way: an output appears complete and checked, or not
// at all.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <stdexcept>
#include <vector>

namespace nestris {

struct FileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Reads a regular file; refuses directories and files over `max_bytes` (ROMs and patches are
// small; a huge file is the wrong file, and reading it would only waste memory).
std::vector<uint8_t> read_file(const std::filesystem::path& path, uint64_t max_bytes = 64u << 20);

// Called with the bytes as re-read from disk before they are published; throws to cancel.
using OnDiskCheck = std::function<void(std::span<const uint8_t> on_disk)>;

// Writes `bytes` to a temporary file in the target's directory, flushes it to disk, reads it
// back and compares, runs `check` on what was read, then renames it over `target`. On any
// failure the temporary file is removed, `target` is untouched, and FileError (or the check's
// exception) propagates. A new file gets mode 0644; an existing one keeps its mode.
void write_file_atomically(const std::filesystem::path& target, std::span<const uint8_t> bytes,
                           const OnDiskCheck& check = {});

}  // namespace nestris

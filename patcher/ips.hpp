// IPS patches: read, write, make and apply.
//
// The format: "PATCH", then records, then "EOF". A record is a 3-byte big-endian file offset and
// a 2-byte size followed by that many bytes; size 0 marks an RLE record (2-byte count, 1 byte
// value). After "EOF" a 3-byte size may follow (the Lunar IPS truncation extension). Its limits,
// all enforced here:
//   - offsets are 24-bit (at most $FFFFFF);
//   - a record cannot start at $454F46, whose three bytes spell "EOF" and end the patch;
//   - a record writes at most 65 535 bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

namespace nestris {

struct IpsError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline constexpr uint32_t kIpsMaxOffset = 0xFFFFFF;
inline constexpr uint32_t kIpsEofOffset = 0x454F46;
inline constexpr uint32_t kIpsMaxRecordLength = 0xFFFF;

struct IpsRecord {
    uint32_t offset = 0;        // file offset of the first byte written
    uint32_t length = 0;        // bytes written, 1..65535
    bool rle = false;           // true: `length` copies of data[0]
    std::vector<uint8_t> data;  // literal: the `length` bytes; RLE: the one repeated byte

    uint32_t end() const { return offset + length; }
    uint8_t byte_at(uint32_t i) const { return rle ? data[0] : data[i]; }
    // Bytes this record takes in the patch file.
    uint32_t encoded_size() const { return rle ? 8 : 5 + length; }
    bool operator==(const IpsRecord&) const = default;
};

struct IpsPatch {
    std::vector<IpsRecord> records;       // applied in this order; later records win
    std::optional<uint32_t> truncate_to;  // file size after the records (Lunar IPS extension)

    // Where record i starts in the patch file (for messages).
    uint32_t position_of(size_t index) const;
    bool operator==(const IpsPatch&) const = default;
};

// Reads a patch. Throws IpsError naming the byte offset (in the patch) of the first problem:
// bad header, a record cut short, a zero-count RLE record, no "EOF", junk after "EOF".
IpsPatch parse_ips(std::span<const uint8_t> bytes);

// Writes a patch. Throws IpsError when a record breaks a limit of the format.
std::vector<uint8_t> serialize_ips(const IpsPatch& patch);

// A run of bytes to write at a file offset.
struct ByteBlock {
    uint32_t offset = 0;
    std::vector<uint8_t> bytes;
};

// Encodes blocks (any order, not overlapping) as records: RLE where that makes the patch
// smaller, records split at 65 535 bytes, and no record starting at $454F46. Writing the byte
// at $454F46 without starting there means starting one byte earlier and rewriting the byte
// already at $454F45: it is taken from an adjacent block, or from `source` (the file the patch
// will be applied to). Throws IpsError if neither knows it, or an offset exceeds $FFFFFF.
IpsPatch encode_ips(std::vector<ByteBlock> blocks, std::span<const uint8_t> source = {});

// The patch that turns `source` into `target` (a truncation record if target is shorter).
IpsPatch diff_ips(std::span<const uint8_t> source, std::span<const uint8_t> target);

struct IpsApplyOptions {
    // IPS appliers traditionally grow the file (zero-filled) for records past its end. For a ROM
    // of fixed size that is a sign of the wrong patch or the wrong file, so it is refused unless
    // asked for.
    bool allow_growth = false;
    // A truncation record (Lunar IPS) that makes the file shorter cuts off bytes no record
    // wrote: for a ROM that is the wrong patch, so it is refused unless asked for.
    bool allow_truncation = false;
};

// Applies a patch to a copy of `source`. Throws IpsError naming the record's position in the
// patch when it writes past the end of the file and growth is not allowed, or when its
// truncation record shortens the file and truncation is not allowed.
std::vector<uint8_t> apply_ips(std::span<const uint8_t> source, const IpsPatch& patch,
                               IpsApplyOptions options = {});

}  // namespace nestris

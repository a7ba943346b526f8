#include "patcher/bps.hpp"

#include "base/checksums.hpp"

#include <algorithm>

namespace nestris {
namespace {

constexpr uint8_t kMagic[4] = {'B', 'P', 'S', '1'};
constexpr size_t kFooterSize = 12;
// The largest number a valid patch holds for files of up to kBpsMaxFileSize bytes: an action of
// the whole target, ((kBpsMaxFileSize - 1) << 2) | 3. (A copy's offset, |d| << 1 | sign with
// |d| < kBpsMaxFileSize, and the sizes are smaller.) A larger number cannot be valid; the cap
// also keeps the decoding below from overflowing.
constexpr uint64_t kMaxNumber = ((kBpsMaxFileSize - 1) << 2) | 3;

enum Action : uint8_t { SourceRead = 0, TargetRead = 1, SourceCopy = 2, TargetCopy = 3 };

std::string at(size_t offset) { return "at byte " + std::to_string(offset) + " of the patch: "; }

uint32_t le32(std::span<const uint8_t> b, size_t p) {
    return uint32_t{b[p]} | uint32_t{b[p + 1]} << 8 | uint32_t{b[p + 2]} << 16 | uint32_t{b[p + 3]} << 24;
}

// Reads the patch from `pos` up to `end` (the footer), checking every number and action.
class Reader {
public:
    Reader(std::span<const uint8_t> patch, size_t pos, size_t end) : patch_(patch), pos_(pos), end_(end) {}

    size_t pos() const { return pos_; }
    bool done() const { return pos_ >= end_; }

    uint64_t number(const char* what) {
        const size_t start = pos_;
        uint64_t value = 0, shift = 1;
        for (;;) {
            if (pos_ >= end_) throw BpsError(at(start) + what + " cut short");
            const uint8_t x = patch_[pos_++];
            value += (x & 0x7F) * shift;
            if (x & 0x80) break;
            shift <<= 7;
            value += shift;
            if (shift > kMaxNumber || value > kMaxNumber) throw BpsError(at(start) + what + " is too large");
        }
        if (value > kMaxNumber) throw BpsError(at(start) + what + " is too large");
        return value;
    }

    int64_t signed_number(const char* what) {
        const uint64_t n = number(what);
        const int64_t magnitude = static_cast<int64_t>(n >> 1);
        return (n & 1) ? -magnitude : magnitude;
    }

    std::span<const uint8_t> bytes(size_t n, const char* what) {
        if (end_ - pos_ < n) throw BpsError(at(pos_) + what + " cut short");
        const auto out = patch_.subspan(pos_, n);
        pos_ += n;
        return out;
    }

private:
    std::span<const uint8_t> patch_;
    size_t pos_, end_;
};

struct Parsed {
    BpsHeader header;
    size_t actions_begin = 0, actions_end = 0;
};

Parsed parse(std::span<const uint8_t> patch) {
    if (patch.size() < sizeof kMagic || !std::equal(std::begin(kMagic), std::end(kMagic), patch.begin()))
        throw BpsError("not a BPS patch (it does not start with \"BPS1\")");
    if (patch.size() < sizeof kMagic + 3 + kFooterSize) throw BpsError("the patch is too short to hold its checksums");
    const size_t footer = patch.size() - kFooterSize;
    Parsed out;
    BpsHeader& h = out.header;
    h.source_crc32 = le32(patch, footer);
    h.target_crc32 = le32(patch, footer + 4);
    h.patch_crc32 = le32(patch, footer + 8);
    const uint32_t actual = crc32_of(patch.first(footer + 8));
    if (actual != h.patch_crc32)
        throw BpsError("the patch is damaged: its CRC32 is " + crc32_hex(actual) + ", its footer says " +
                       crc32_hex(h.patch_crc32));
    Reader r(patch, sizeof kMagic, footer);
    h.source_size = r.number("the source size");
    h.target_size = r.number("the target size");
    if (h.source_size > kBpsMaxFileSize || h.target_size > kBpsMaxFileSize)
        throw BpsError("the patch describes a file of more than " + std::to_string(kBpsMaxFileSize) + " bytes");
    const uint64_t metadata_size = r.number("the metadata size");
    const auto metadata = r.bytes(metadata_size, "the metadata");
    h.metadata.assign(metadata.begin(), metadata.end());
    out.actions_begin = r.pos();
    out.actions_end = footer;

    // Walk the actions once to check them against the sizes.
    uint64_t written = 0;
    int64_t source_cursor = 0, target_cursor = 0;
    while (!r.done()) {
        const size_t start = r.pos();
        const uint64_t action = r.number("an action");
        const uint64_t length = (action >> 2) + 1;
        if (length > h.target_size - written)
            throw BpsError(at(start) + "an action writes past the end of the target (" + std::to_string(h.target_size) +
                           " bytes)");
        switch (action & 3) {
        case SourceRead:
            if (written + length > h.source_size)
                throw BpsError(at(start) + "a SourceRead reads past the end of the source");
            break;
        case TargetRead:
            r.bytes(length, "a TargetRead's bytes");
            h.literal_bytes += length;
            break;
        case SourceCopy:
        case TargetCopy: {
            const bool from_source = (action & 3) == SourceCopy;
            int64_t& cursor = from_source ? source_cursor : target_cursor;
            cursor += r.signed_number("a copy's offset");
            const uint64_t limit = from_source ? h.source_size : written;  // TargetCopy: only bytes written
            if (cursor < 0 || static_cast<uint64_t>(cursor) >= limit ||
                (from_source && static_cast<uint64_t>(cursor) + length > limit))
                throw BpsError(at(start) + (from_source ? "a SourceCopy reads outside the source"
                                                        : "a TargetCopy reads a byte not yet written"));
            cursor += static_cast<int64_t>(length);
            break;
        }
        }
        written += length;
        ++h.actions;
    }
    if (written != h.target_size)
        throw BpsError("the actions write " + std::to_string(written) + " bytes, the target has " +
                       std::to_string(h.target_size));
    return out;
}

void put_number(std::vector<uint8_t>& out, uint64_t n) {
    for (;;) {
        const uint8_t x = n & 0x7F;
        n >>= 7;
        if (n == 0) {
            out.push_back(0x80 | x);
            return;
        }
        out.push_back(x);
        --n;
    }
}

void put_le32(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

}  // namespace

BpsHeader parse_bps(std::span<const uint8_t> patch) { return parse(patch).header; }

std::vector<uint8_t> apply_bps(std::span<const uint8_t> source, std::span<const uint8_t> patch) {
    const Parsed p = parse(patch);
    const BpsHeader& h = p.header;
    if (source.size() != h.source_size)
        throw BpsError("the file is " + std::to_string(source.size()) + " bytes; this patch is for a file of " +
                       std::to_string(h.source_size));
    const uint32_t source_crc = crc32_of(source);
    if (source_crc != h.source_crc32)
        throw BpsError("the file's CRC32 is " + crc32_hex(source_crc) + "; this patch is for a file with CRC32 " +
                       crc32_hex(h.source_crc32));
    std::vector<uint8_t> target;
    target.reserve(h.target_size);
    Reader r(patch, p.actions_begin, p.actions_end);
    size_t source_cursor = 0, target_cursor = 0;
    while (!r.done()) {  // parse() has checked every bound below
        const uint64_t action = r.number("an action");
        const size_t length = static_cast<size_t>((action >> 2) + 1);
        switch (action & 3) {
        case SourceRead:
            target.insert(target.end(), source.begin() + static_cast<ptrdiff_t>(target.size()),
                          source.begin() + static_cast<ptrdiff_t>(target.size() + length));
            break;
        case TargetRead: {
            const auto bytes = r.bytes(length, "a TargetRead's bytes");
            target.insert(target.end(), bytes.begin(), bytes.end());
            break;
        }
        case SourceCopy:
            source_cursor = static_cast<size_t>(static_cast<int64_t>(source_cursor) + r.signed_number("an offset"));
            target.insert(target.end(), source.begin() + static_cast<ptrdiff_t>(source_cursor),
                          source.begin() + static_cast<ptrdiff_t>(source_cursor + length));
            source_cursor += length;
            break;
        case TargetCopy:
            target_cursor = static_cast<size_t>(static_cast<int64_t>(target_cursor) + r.signed_number("an offset"));
            for (size_t i = 0; i < length; ++i) target.push_back(target[target_cursor++]);  // may overlap
            break;
        }
    }
    const uint32_t target_crc = crc32_of(target);
    if (target_crc != h.target_crc32)
        throw BpsError("the result's CRC32 is " + crc32_hex(target_crc) + ", the patch expects " +
                       crc32_hex(h.target_crc32) + ": the patch does not fit this file");
    return target;
}

std::vector<uint8_t> bps_from_ips(const IpsPatch& ips, uint64_t source_size, uint32_t source_crc32,
                                  uint32_t target_crc32, std::string_view metadata) {
    if (ips.truncate_to) throw BpsError("the IPS patch truncates the file; a same-size BPS cannot say that");
    if (source_size > kBpsMaxFileSize) throw BpsError("the source is too large for a BPS patch here");
    // Later IPS records win: lay every write over a map of the file, then read the runs off it.
    std::vector<int16_t> byte(static_cast<size_t>(source_size), -1);
    for (const IpsRecord& record : ips.records) {
        if (record.end() > source_size)
            throw BpsError("the IPS patch writes past the end of a " + std::to_string(source_size) + "-byte file");
        for (uint32_t i = 0; i < record.length; ++i) byte[record.offset + i] = record.byte_at(i);
    }
    std::vector<uint8_t> out(std::begin(kMagic), std::end(kMagic));
    put_number(out, source_size);
    put_number(out, source_size);
    put_number(out, metadata.size());
    out.insert(out.end(), metadata.begin(), metadata.end());
    for (size_t i = 0; i < byte.size();) {
        const bool literal = byte[i] >= 0;
        size_t end = i;
        while (end < byte.size() && (byte[end] >= 0) == literal) ++end;
        put_number(out, (uint64_t{end - i} - 1) << 2 | (literal ? TargetRead : SourceRead));
        if (literal)
            for (size_t k = i; k < end; ++k) out.push_back(static_cast<uint8_t>(byte[k]));
        i = end;
    }
    put_le32(out, source_crc32);
    put_le32(out, target_crc32);
    put_le32(out, crc32_of(out));
    return out;
}

}  // namespace nestris

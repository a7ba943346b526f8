#include "patcher/code_pack.hpp"

#include "base/hex.hpp"

#include <algorithm>
#include <array>
#include <limits>

namespace nestris {
namespace {

// One step of the parse: `length` literal bytes (offset 0) or a copy of `length` bytes from
// `offset` back.
struct Op {
    uint32_t offset = 0;
    uint32_t length = 0;
};

unsigned gamma_bits(unsigned v) {
    unsigned bits = 1;
    for (unsigned top = v; top > 1; top >>= 1) bits += 2;
    return bits;
}

constexpr unsigned kMaxRun = 255;

// An optimal parse for the bit cost of the format (in code_pack.hpp), up to the last offset:
// each position and state keeps the cheapest way there and the last offset on it, so a repeat
// of that offset is priced from there alone.
std::vector<Op> parse(std::span<const uint8_t> data) {
    const size_t n = data.size();
    constexpr uint64_t kInf = std::numeric_limits<uint64_t>::max() / 4;
    struct Node {
        uint64_t cost = kInf;
        uint32_t from = 0;      // position before this step
        uint8_t from_state = 0;
        Op op;
        uint32_t last = 1;      // the last offset after it
    };
    // state 0: after a match (or at the start), 1: after a literal run
    std::vector<std::array<Node, 2>> at(n + 1);
    at[0][0].cost = 0;
    // Lengths of the match at each offset back, at position i: grows from the back.
    auto match_length = [&](size_t i, size_t offset) {
        size_t len = 0;
        while (i + len < n && len < kMaxRun && data[i + len] == data[i + len - offset]) ++len;
        return len;
    };
    auto relax = [&](size_t to, int state, uint64_t cost, size_t from, int from_state, Op op, uint32_t last) {
        Node& node = at[to][state];
        if (cost < node.cost) node = {cost, static_cast<uint32_t>(from), static_cast<uint8_t>(from_state), op, last};
    };
    const size_t max_offset = size_t{kPackMaxOffsetHigh} * 256;
    for (size_t i = 0; i < n; ++i) {
        for (int state = 0; state < 2; ++state) {
            const Node& here = at[i][state];
            if (here.cost >= kInf) continue;
            if (state == 0) {  // a literal run (one short of the most: a byte may join it, write_stream)
                for (size_t len = 1; len < kMaxRun && i + len <= n; ++len)
                    relax(i + len, 1, here.cost + 1 + gamma_bits(static_cast<unsigned>(len)) + 8 * len, i, 0,
                          {0, static_cast<uint32_t>(len)}, here.last);
            } else if (here.last <= i) {  // a repeat of the last offset
                const size_t most = match_length(i, here.last);
                for (size_t len = 1; len <= most; ++len)
                    relax(i + len, 0, here.cost + 1 + gamma_bits(static_cast<unsigned>(len)), i, 1,
                          {here.last, static_cast<uint32_t>(len)}, here.last);
            }
            // New offsets, nearest first: for each length the nearest offset that has it is
            // the cheapest, so a farther offset is tried only for lengths beyond the nearer ones'.
            size_t longest = 1;
            for (size_t offset = 1; offset <= i && offset <= max_offset; ++offset) {
                const size_t most = match_length(i, offset);
                if (most <= longest) continue;
                const unsigned high = static_cast<unsigned>((offset - 1) >> 8);
                for (size_t len = longest + 1; len <= most; ++len)
                    relax(i + len, 0,
                          here.cost + 1 + gamma_bits(high + 1) + 8 + gamma_bits(static_cast<unsigned>(len - 1)), i,
                          state, {static_cast<uint32_t>(offset), static_cast<uint32_t>(len)},
                          static_cast<uint32_t>(offset));
                longest = most;
                if (longest == kMaxRun) break;
            }
        }
    }
    if (at[n][0].cost >= kInf && at[n][1].cost >= kInf) {
        // A literal run is followed by a match: past 254 bytes with no repeat there is no way on.
        size_t reach = 0;
        while (reach < n && (at[reach][0].cost < kInf || at[reach][1].cost < kInf)) ++reach;
        throw CodePackError("the data cannot be packed: no repeat of 2 bytes or more near byte " +
                            std::to_string(reach) + " (a literal run ends in a match, and one holds 254 bytes)");
    }
    std::vector<Op> ops;
    size_t pos = n;
    int state = at[n][0].cost <= at[n][1].cost ? 0 : 1;
    while (pos > 0) {
        const Node& node = at[pos][state];
        ops.push_back(node.op);
        pos = node.from;
        state = node.from_state;
    }
    std::reverse(ops.begin(), ops.end());
    return ops;
}

// Writes the stream in the decoder's order of reads, into rooms.
class Writer {
public:
    explicit Writer(const std::vector<StreamRoom>* rooms) : rooms_(rooms) {}

    std::vector<PackChunk> chunks;

    void bit(bool b) {
        if (mask_ == 0) {
            bit_chunk_ = chunks.size() - 1;
            bit_at_ = here().bytes.size();
            here().bytes.push_back(0);
            mask_ = 0x80;
        }
        // (the byte in hand may be in the chunk before a jump: the decoder read it there)
        if (b) chunks[bit_chunk_].bytes[bit_at_] |= mask_;
        mask_ >>= 1;
    }
    void byte(uint8_t b) { here().bytes.push_back(b); }
    void gamma(unsigned v) {
        unsigned top = 0x80;
        while (!(v & top)) top >>= 1;
        for (top >>= 1; top; top >>= 1) {
            bit(false);
            bit(v & top);
        }
        bit(true);
    }
    // Bytes that `bits` bits and `raw` bytes add from here.
    size_t growth(unsigned bits, size_t raw) const { return raw + new_bit_bytes(bits_left(), bits); }
    // The same, and then a jump to the next room (what a chunk must keep room for: the end,
    // 1 + gamma(END), takes no more than a jump).
    size_t growth_and_jump(unsigned bits, size_t raw) const {
        const unsigned in_hand = bits_left();
        const unsigned after = bits <= in_hand ? in_hand - bits : (8 - (bits - in_hand) % 8) % 8;
        return raw + new_bit_bytes(in_hand, bits) + kJumpRaw + new_bit_bytes(after, kJumpBits);
    }
    // Room left in the chunk at hand (unbounded without rooms).
    size_t room_left() const {
        if (!rooms_) return std::numeric_limits<size_t>::max() / 2;
        return (*rooms_)[room_].free - chunks.back().bytes.size();
    }
    // To the next room that can hold `need` bytes and a jump; false when there is none.
    bool next_room(size_t need) {
        for (size_t r = room_ + 1; r < rooms_->size(); ++r)
            if ((*rooms_)[r].free >= need + kJumpBytes) {
                const StreamRoom& room = (*rooms_)[r];
                bit(true);
                gamma(kPackJump);
                byte(static_cast<uint8_t>(room.address));
                byte(static_cast<uint8_t>(room.address >> 8));
                room_ = r;
                chunks.push_back({room.region, room.address, {}});
                return true;
            }
        return false;
    }
    void start() {
        if (!rooms_) {
            chunks.push_back({"", 0, {}});
            return;
        }
        for (room_ = 0; room_ < rooms_->size() && (*rooms_)[room_].free < 2 * kJumpBytes; ++room_) {}
        if (room_ == rooms_->size()) throw CodePackError("no room for the packed code");
        chunks.push_back({(*rooms_)[room_].region, (*rooms_)[room_].address, {}});
    }
    static constexpr size_t kJumpBytes = 4;  // 1 + gamma(JUMP) bits (at most 2 bit bytes) + 2
    static constexpr unsigned kJumpBits = 1 + 11;  // 1 + gamma(JUMP)
    static_assert(kPackJump >= 32 && kPackJump < 64, "gamma(JUMP) takes 11 bits");
    static constexpr size_t kJumpRaw = 2;

private:
    static size_t new_bit_bytes(unsigned in_hand, unsigned bits) { return bits > in_hand ? (bits - in_hand + 7) / 8 : 0; }
    PackChunk& here() { return chunks.back(); }
    unsigned bits_left() const {
        unsigned left = 0;
        for (uint8_t m = mask_; m; m >>= 1) ++left;
        return left;
    }
    const std::vector<StreamRoom>* rooms_;
    size_t room_ = 0;
    size_t bit_chunk_ = 0;
    size_t bit_at_ = 0;
    uint8_t mask_ = 0;
};

std::vector<PackChunk> write_stream(std::span<const uint8_t> data, const std::vector<StreamRoom>* rooms) {
    std::vector<Op> ops = parse(data);
    Writer w(rooms);
    w.start();
    bool after_literal = false;
    uint32_t last = 1;
    size_t pos = 0;
    auto fail = [&]() -> CodePackError {
        size_t have = 0;
        for (const StreamRoom& r : *rooms) have += r.free;
        return CodePackError("the packed code does not fit its rooms: " + std::to_string(data.size()) +
                             " bytes, of which " + std::to_string(pos) + " were packed into " +
                             std::to_string(have) + " bytes of room");
    };
    for (size_t k = 0; k < ops.size(); ++k) {
        Op op = ops[k];
        if (op.offset == 0) {  // a literal run, split where a room ends
            while (op.length > 0) {
                size_t len = op.length;
                while (len > 0 && w.growth_and_jump(1 + gamma_bits(static_cast<unsigned>(len)), len) > w.room_left()) --len;
                if (len == 0) {
                    if (!w.next_room(w.growth(1 + gamma_bits(1), 1))) throw fail();
                    after_literal = false;
                    continue;
                }
                w.bit(false);
                w.gamma(static_cast<unsigned>(len));
                for (size_t j = 0; j < len; ++j) w.byte(data[pos + j]);
                pos += len;
                op.length -= static_cast<uint32_t>(len);
                after_literal = true;
                if (op.length > 0) {
                    if (!w.next_room(w.growth(1 + gamma_bits(1), 1))) throw fail();
                    after_literal = false;
                }
            }
            continue;
        }
        // A match: a repeat where the state allows it, else a new offset.
        for (;;) {
            const bool repeat = after_literal && op.offset == last;
            const unsigned bits = repeat ? 1 + gamma_bits(op.length)
                                         : 1 + gamma_bits(((op.offset - 1) >> 8) + 1) + gamma_bits(op.length - 1);
            const size_t grow = w.growth(bits, repeat ? 0 : 1);
            if (w.growth_and_jump(bits, repeat ? 0 : 1) <= w.room_left() && (repeat || op.length >= 2)) {
                w.bit(!repeat);
                if (repeat) {
                    w.gamma(op.length);
                } else {
                    w.gamma(((op.offset - 1) >> 8) + 1);
                    w.byte(static_cast<uint8_t>(op.offset - 1));
                    w.gamma(op.length - 1);
                }
                pos += op.length;
                last = op.offset;
                after_literal = false;
                break;
            }
            if (!repeat && op.length < 2) {
                // A one-byte repeat after a jump: a literal byte instead, merged with a run after it.
                if (k + 1 < ops.size() && ops[k + 1].offset == 0 && ops[k + 1].length < kMaxRun) {
                    ops[k + 1].length += 1;
                } else {
                    ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(k + 1), Op{0, 1});
                }
                break;
            }
            if (!w.next_room(grow)) throw fail();
            after_literal = false;
        }
    }
    w.bit(true);
    w.gamma(kPackEnd);
    return w.chunks;
}

}  // namespace

std::vector<PackChunk> pack_code(std::span<const uint8_t> data, const std::vector<StreamRoom>& rooms) {
    return write_stream(data, &rooms);
}

std::vector<uint8_t> pack_code(std::span<const uint8_t> data) {
    return write_stream(data, nullptr).front().bytes;
}

std::vector<uint8_t> unpack_code(const std::function<uint8_t(uint16_t)>& read, uint16_t start, size_t limit) {
    uint16_t src = start;
    uint8_t bits = 0x80;
    auto next_byte = [&] { return read(src++); };
    auto next_bit = [&] {
        bool carry = bits & 0x80;
        bits = static_cast<uint8_t>(bits << 1);
        if (bits == 0) {
            const uint8_t b = next_byte();
            carry = b & 0x80;
            bits = static_cast<uint8_t>((b << 1) | 1);
        }
        return carry;
    };
    auto gamma = [&] {
        unsigned v = 1;
        while (!next_bit()) {
            v = v * 2 + (next_bit() ? 1 : 0);
            if (v > 255) throw CodePackError("a gamma code past 255 at " + hex(src, 4));
        }
        return v;
    };
    std::vector<uint8_t> out;
    bool after_literal = false;
    size_t last = 1;
    auto copy = [&](size_t offset, size_t length) {
        if (offset > out.size()) throw CodePackError("a match reaches before the start, near " + hex(src, 4));
        for (size_t j = 0; j < length; ++j) out.push_back(out[out.size() - offset]);
    };
    for (;;) {
        if (out.size() > limit) throw CodePackError("the stream writes more than " + std::to_string(limit) + " bytes");
        if (!next_bit()) {
            const unsigned n = gamma();
            if (after_literal) {
                copy(last, n);
                after_literal = false;
            } else {
                for (unsigned j = 0; j < n; ++j) out.push_back(next_byte());
                after_literal = true;
            }
            continue;
        }
        const unsigned high = gamma();
        if (high == kPackEnd) return out;
        if (high == kPackJump) {
            const uint8_t lo = next_byte();
            src = static_cast<uint16_t>(lo | next_byte() << 8);
            after_literal = false;
            continue;
        }
        const size_t offset = (size_t{high - 1} << 8) + next_byte() + 1;
        copy(offset, gamma() + 1);
        last = offset;
        after_literal = false;
    }
}

}  // namespace nestris

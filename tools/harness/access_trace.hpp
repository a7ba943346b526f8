// Which instructions of the real game read, write or run chosen addresses, and which jumps enter
// chosen spans of code: the proofs that the hooks leave the game's bytes alone.
#pragma once

#include "emu-test/nes.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace nestris::game {

enum AccessKind : uint8_t { kExecute = 1, kRead = 2, kWrite = 4 };
std::string access_kind_name(uint8_t kind);

struct WatchedRange {
    uint16_t first = 0, last = 0;  // inclusive CPU addresses (RAM: $0000-$07FF, no mirrors)
    std::string name;
};

// The accesses of one instruction (pc) of one kind to one watched range, in one game situation.
struct AccessSite {
    std::string range;
    uint16_t pc = 0;
    uint8_t kind = 0;
    uint8_t game_mode = 0, game_mode_state = 0, play_state = 0;
    uint16_t lowest = 0xFFFF, highest = 0;  // addresses touched
    uint64_t count = 0, first_frame = 0;
    std::string describe() const;
};

// Decodes every instruction before it runs (operand bytes, effective address from the
// registers and memory, as the CPU will use them; OAM DMA pages) and records each access to a
// watched address: instruction fetches (every byte of the instruction) as execute, operand
// reads and writes, pointer reads of indirect modes, the read-modify-write of INC/ASL/...
// (both a read and a write). The emulator makes no dummy reads, and neither does the trace.
// Writes to $8000-$FFFF go to the MMC1's registers, whatever the ROM holds there: they are
// counted apart (mapper_writes), not as accesses to ROM bytes.
//
// Entry checks: for a span of code, every instruction inside it that follows one outside it
// must be one of the allowed entry points, or follow an RTS/RTI (a return into the span, or
// the end of an interrupt that came while it ran); anything else (a jump, branch or fall into
// the span from outside) is recorded as a foreign entry.
struct EntryCheck {
    uint16_t first = 0, last = 0;
    std::vector<uint16_t> allowed;
    std::string name;
};
struct ForeignEntry {
    std::string span;
    uint16_t from = 0, to = 0;
    uint64_t count = 0, first_frame = 0;
};

class AccessTrace {
public:
    explicit AccessTrace(std::vector<WatchedRange> watched, std::vector<EntryCheck> entries = {});
    // Installs the trace as the machine's instruction hook (replacing any other).
    void attach(emu::Nes& nes);
    void on_instruction(const emu::Nes& nes);
    std::vector<AccessSite> sites() const;
    std::vector<ForeignEntry> foreign_entries() const;
    // The kinds of access (AccessKind bits) seen at a watched address, over the whole run.
    uint8_t touched(uint16_t addr) const { return touched_[addr]; }
    uint64_t instructions() const { return instructions_; }
    uint64_t mapper_writes() const { return mapper_writes_; }

private:
    void touch(const emu::Nes& nes, uint16_t addr, uint8_t kind);
    std::vector<WatchedRange> ranges_;
    std::vector<uint8_t> range_of_;  // 64 KiB: index + 1 of the range holding the address, 0 none
    std::vector<uint8_t> touched_;   // 64 KiB: AccessKind bits seen
    std::map<std::tuple<uint8_t, uint16_t, uint8_t, uint8_t, uint8_t, uint8_t>, AccessSite> sites_;
    std::vector<EntryCheck> entries_;
    std::vector<uint8_t> span_of_;   // 64 KiB: index + 1 of the entry-checked span, 0 none
    std::map<std::pair<uint16_t, uint16_t>, ForeignEntry> foreign_;
    uint16_t prev_pc_ = 0;
    uint8_t prev_opcode_ = 0;
    uint64_t instructions_ = 0, mapper_writes_ = 0;
};

}  // namespace nestris::game

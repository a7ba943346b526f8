// FCEUX text movies (.fm2): a strict parser, and the player that runs one on the NES machine
// frame by frame the way FCEUX does.
//
// The format (FCEUX's movie.cpp): header lines `key value` first, then one line per frame,
//   |commands|RLDUTSBA|RLDUTSBA||
// commands a decimal number (bit 0 = soft reset, bit 1 = power; applied before the frame runs),
// then controller 1 and controller 2 as eight characters each, Right Left Down Up sTart Select
// B A, '.' (or ' ') for a button not pressed, then the empty expansion port field.
// What is refused, with the line number: anything but `version 3` first, PAL (`palFlag 1`), the
// Four Score, a Zapper or any port other than a gamepad or nothing, FDS and VS commands, binary
// movies (`binary 1`), movies that start from a savestate or with save RAM, FCEUX's new PPU
// (`NewPPU 1`), controller 2 input (port 2 is empty here), and malformed lines. Unknown keys are
// ignored, as FCEUX does.
#pragma once

#include "base/file_io.hpp"
#include "emu-test/cartridge.hpp"
#include "emu-test/flat_machine.hpp"  // RunStatus
#include "emu-test/nes.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace nestris::emu {

struct Fm2Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

namespace fm2_command {
inline constexpr uint8_t Reset = 1, Power = 2;
}

struct Fm2Frame {
    uint8_t commands = 0;  // fm2_command:: bits
    uint8_t pad1 = 0;      // button:: bits (A = 1 ... Right = 128), as the NES reads them
    bool operator==(const Fm2Frame&) const = default;
};

struct Fm2Movie {
    int version = 0;
    int emu_version = 0;
    uint32_t rerecord_count = 0;
    std::string rom_filename;
    std::optional<std::array<uint8_t, 16>> rom_md5;  // romChecksum: MD5 of the PRG and CHR data
    std::string guid;
    int port0 = 1, port1 = 1, port2 = 0;  // FCEUX: 0 nothing, 1 gamepad
    int ram_init_option = 0;              // FCEUX RAMInitOption (0 its pattern, 1 $FF, 2 $00, 3 random)
    uint32_t ram_init_seed = 0;
    std::vector<std::string> comments, subtitles;
    std::vector<Fm2Frame> frames;
};

// Parses the text of an .fm2 file; throws Fm2Error ("line N: ...") for what it cannot play.
Fm2Movie parse_fm2(std::string_view text);

// FCEUX's ROM checksum: MD5 (checksums.hpp) of the PRG ROM then the CHR ROM.
std::array<uint8_t, 16> fceux_rom_md5(const Cartridge& cart);
// FCEUX's spelling of a checksum in a movie header: "base64:" and 24 base64 characters.
std::string fm2_checksum_text(const std::array<uint8_t, 16>& digest);

// The header of a movie for `cart`, as FCEUX writes one (version 3, gamepad on port 0 only). Its
// guid is made from the checksum and the comment: FCEUX ties a savestate to a movie by it, so
// movies made another way (another comment) must not share one, and the same command must
// write the same file.
std::string fm2_header(const Cartridge& cart, std::string_view rom_filename, std::string_view comment = {});
// One input line for a frame.
std::string fm2_line(const Fm2Frame& frame);

// A movie written while its run goes on, a line a frame: a long run's movie is never held in
// memory. It goes to a temporary file beside `target` and appears there whole on finish(), or
// not at all (destroyed before finish(): an error, an interrupted run), as every output
// (base/file_io.hpp, OutputFile).
class Fm2Writer {
public:
    // A target that cannot be written is refused here (FileError), before the run.
    Fm2Writer(const std::filesystem::path& target, const Cartridge& cart, std::string_view rom_filename,
              std::string_view comment);
    void frame(const Fm2Frame& f);
    uint64_t frames() const { return frames_; }
    void finish();

private:
    OutputFile out_;
    uint64_t frames_ = 0;
};

// Power-on as FCEUX plays a movie from power-on: nes.power_on(mode), and with PowerOn::Fceux the
// movie's RAM pattern (RAMInitOption 0, FCEUX's default pattern, or 2, zeros).
void fm2_power_on(Nes& nes, const Fm2Movie& movie, PowerOn mode);

// Runs frame i of the movie in FCEUX's sense: applies its commands (power: fm2_power_on with the
// machine's mode; reset: reset()), holds its buttons, and runs to the start of line 240 (where
// FCEUX's frames begin and end: the frame's vblank comes one line later, and its NMI reads these
// buttons). The boundary falls after the instruction that crosses it.
RunStatus run_fm2_frame(Nes& nes, const Fm2Movie& movie, size_t i);

}  // namespace nestris::emu

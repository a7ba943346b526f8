// NES ROM files: the iNES header, and what a file is (identify) — the supported original, a
// headerless copy of it, a ROM we refuse and why, a ROM already patched by nestris-ai, or
// unknown. Identification is by checksum only: no byte of the game is stored in this project.
#pragma once

#include "patcher/ips.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nestris {

inline constexpr size_t kInesHeaderSize = 16;
inline constexpr size_t kTrainerSize = 512;

enum class TvSystem { Ntsc, Pal, MultiRegion, Dendy };

struct InesHeader {
    bool nes2 = false;     // NES 2.0 (byte 7 bits 2-3 = 2)
    bool archaic = false;  // bytes 7-15 hold junk (e.g. "DiskDude!"): byte 7 is not trusted
    uint64_t prg_rom_bytes = 0;
    uint64_t chr_rom_bytes = 0;  // 0: the board has CHR RAM
    uint16_t mapper = 0;
    uint8_t submapper = 0;  // NES 2.0 only
    bool vertical_mirroring = false;
    bool battery = false;
    bool trainer = false;  // 512 bytes between header and PRG
    bool four_screen = false;
    TvSystem tv = TvSystem::Ntsc;

    // Bytes the header says the file holds, header included.
    uint64_t expected_file_size() const;
    // "mapper 1 (MMC1), PRG 2 x 16 KiB, CHR 2 x 8 KiB, horizontal mirroring, NTSC"
    std::string describe() const;
};

// nullopt if the file is shorter than 16 bytes or does not start with "NES\x1A".
std::optional<InesHeader> parse_ines(std::span<const uint8_t> file);
// The iNES 1.0 encoding of a header (NES 2.0 fields such as the submapper are dropped).
std::array<uint8_t, kInesHeaderSize> encode_ines(const InesHeader& header);

// A game ROM database entry. Checksums of the whole standard file and of PRG+CHR without the
// header (what a headerless dump holds).
struct KnownRom {
    std::string_view name;
    std::string_view file_sha1;
    uint32_t file_crc32 = 0;
    std::string_view payload_sha1;
    uint32_t payload_crc32 = 0;
    InesHeader header;          // its standard iNES header
    bool supported = false;     // nestris-ai patches this one
    std::string_view refusal;   // why not, when unsupported
};

// Tetris (USA) (supported) and Tetris (Europe) (refused: PAL).
std::span<const KnownRom> known_roms();
// Mapper 1 (MMC1), 2 x 16 KiB PRG, 2 x 8 KiB CHR, mirroring set by the mapper, no battery.
InesHeader tetris_usa_header();

// The signature nestris-ai puts in PRG (asm/signature.s): "NESTRIS-AI\0", version
// major/minor/patch, build id (4 bytes, little endian).
inline constexpr std::string_view kSignatureMagic{"NESTRIS-AI\0", 11};
inline constexpr size_t kSignatureSize = 11 + 3 + 4;

struct NestrisSignature {
    size_t file_offset = 0;
    std::optional<uint16_t> cpu_address;  // when the ROM maps PRG as Tetris does (32 KiB at $8000)
    uint8_t major = 0, minor = 0, patch = 0;
    uint32_t build_id = 0;
    bool this_build = false;
    // For this build, when identify was given its patch: the bytes the patch writes, and how
    // many of them the file does not hold (the signature alone proves nothing: a copy of it in
    // another file, or a patch applied 16 bytes off to a headerless dump, carries it too).
    uint32_t patched_bytes = 0, differing_bytes = 0;
    // A headerless dump patched with a generic IPS tool: the patch's offsets count the 16-byte
    // header the dump lacks, so every byte landed 16 bytes late (and the game cannot run).
    bool sixteen_bytes_off = false;
    bool intact() const { return differing_bytes == 0; }
    std::string version() const;
};

enum class RomKind {
    Original,          // the supported game, standard header
    OriginalReheader,  // the supported game's PRG+CHR under a non-standard header
    Headerless,        // the supported game's PRG+CHR with no header
    Refused,           // a known game we do not patch (see refusal)
    Patched,           // carries a nestris-ai signature
    Unknown,
};

struct RomIdentity {
    RomKind kind = RomKind::Unknown;
    const KnownRom* game = nullptr;  // for Original, OriginalReheader, Headerless, Refused
    uint64_t file_size = 0;
    std::string file_sha1;
    uint32_t file_crc32 = 0;
    // PRG+CHR: the file without header and trainer (the whole file when it has no header).
    uint64_t payload_size = 0;
    std::string payload_sha1;
    uint32_t payload_crc32 = 0;
    std::optional<InesHeader> header;
    std::optional<NestrisSignature> signature;
    std::vector<std::string> notes;  // what is odd about the file, for people

    bool patchable() const {
        return kind == RomKind::Original || kind == RomKind::OriginalReheader || kind == RomKind::Headerless;
    }
    // One line: "Tetris (USA), the original (supported)".
    std::string summary() const;
    // Where the game's bytes (PRG+CHR) start in the file.
    size_t payload_offset() const;
};

struct IdentifyContext {
    std::span<const KnownRom> catalogue = known_roms();
    uint32_t this_build_id = 0;  // build id of the running nestris-ai, to say "this build"
    // This build's patch (offsets in a file with the standard header): a file with this build's
    // signature is "this build" only if it holds every byte of it.
    const IpsPatch* this_patch = nullptr;
};

RomIdentity identify_rom(std::span<const uint8_t> file, const IdentifyContext& context);

// Why a file that identify_rom does not call patchable cannot be patched, as one sentence a
// player can act on (the page's line beside its drop zone, identify's error line): the usual
// mistakes first (an archive, a dump cut short or with bytes appended, the PAL game), then what
// the file is and the checksum nestris-ai wants. For a known game it refuses and a ROM already
// patched: id.summary().
std::string refusal_reason(std::span<const uint8_t> file, const RomIdentity& id, std::span<const KnownRom> catalogue);

// Finds the nestris-ai signature in the PRG of a file (header or not); nullopt if absent.
std::optional<NestrisSignature> find_signature(std::span<const uint8_t> file, uint32_t this_build_id);

}  // namespace nestris

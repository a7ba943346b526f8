#include "patcher/rom.hpp"

#include "base/checksums.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string_view>
#include <utility>

namespace nestris {
namespace {

constexpr uint8_t kInesMagic[4] = {'N', 'E', 'S', 0x1A};
constexpr uint64_t kKiB = 1024;
constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max() / 4;

uint64_t saturating_add(uint64_t a, uint64_t b) { return a > kSaturated - std::min(b, kSaturated) ? kSaturated : a + b; }

// NES 2.0 ROM sizes: a 12-bit count of units, or (top nibble $F) 2^E x (2M+1) bytes.
uint64_t nes2_rom_size(uint8_t lsb, uint8_t msb_nibble, uint64_t unit) {
    if (msb_nibble != 0xF) return (uint64_t{msb_nibble} << 8 | lsb) * unit;
    const unsigned exponent = lsb >> 2;
    const uint64_t multiplier = (lsb & 3u) * 2 + 1;
    return exponent >= 60 ? kSaturated : (uint64_t{1} << exponent) * multiplier;
}

std::string rom_size_text(const char* what, uint64_t bytes, uint64_t unit) {
    const uint64_t kib = unit / kKiB;
    if (bytes % unit == 0)
        return std::string(what) + " " + std::to_string(bytes / unit) + " x " + std::to_string(kib) + " KiB";
    return std::string(what) + " " + std::to_string(bytes) + " bytes";
}

const char* mapper_name(uint16_t mapper) {
    switch (mapper) {
        case 0: return "NROM";
        case 1: return "MMC1";
        case 2: return "UxROM";
        case 3: return "CNROM";
        case 4: return "MMC3";
        case 7: return "AxROM";
        default: return nullptr;
    }
}

const char* tv_name(TvSystem tv) {
    switch (tv) {
        case TvSystem::Ntsc: return "NTSC";
        case TvSystem::Pal: return "PAL";
        case TvSystem::MultiRegion: return "NTSC and PAL";
        case TvSystem::Dendy: return "Dendy";
    }
    return "?";
}

}  // namespace

uint64_t InesHeader::expected_file_size() const {
    uint64_t size = saturating_add(kInesHeaderSize + (trainer ? kTrainerSize : 0), prg_rom_bytes);
    return saturating_add(size, chr_rom_bytes);
}

std::string InesHeader::describe() const {
    std::string text = "mapper " + std::to_string(mapper);
    if (const char* name = mapper_name(mapper)) text += std::string(" (") + name + ")";
    if (nes2 && submapper != 0) text += " submapper " + std::to_string(submapper);
    text += ", " + rom_size_text("PRG", prg_rom_bytes, 16 * kKiB);
    text += chr_rom_bytes == 0 ? ", CHR RAM" : ", " + rom_size_text("CHR", chr_rom_bytes, 8 * kKiB);
    text += four_screen ? ", four-screen VRAM" : vertical_mirroring ? ", vertical mirroring" : ", horizontal mirroring";
    if (battery) text += ", battery";
    if (trainer) text += ", 512-byte trainer";
    text += std::string(", ") + tv_name(tv);
    if (nes2) text += " (NES 2.0 header)";
    if (archaic) text += " (old iNES header with junk in bytes 7-15)";
    return text;
}

std::optional<InesHeader> parse_ines(std::span<const uint8_t> file) {
    if (file.size() < kInesHeaderSize || std::memcmp(file.data(), kInesMagic, 4) != 0) return std::nullopt;
    const auto b = file.first(kInesHeaderSize);
    InesHeader h;
    // nesdev wiki: NES 2.0 if byte 7 & $0C = $08; plain iNES if that is 0 and bytes 12-15 are
    // zero; anything else is an old header whose byte 7 is junk (the "DiskDude!" kind).
    h.nes2 = (b[7] & 0x0C) == 0x08;
    h.archaic = !h.nes2 && ((b[7] & 0x0C) != 0 || b[12] || b[13] || b[14] || b[15]);
    h.vertical_mirroring = b[6] & 1;
    h.battery = b[6] & 2;
    h.trainer = b[6] & 4;
    h.four_screen = b[6] & 8;
    h.mapper = b[6] >> 4;
    if (h.nes2) {
        h.mapper |= static_cast<uint16_t>((b[7] & 0xF0) | (b[8] & 0x0F) << 8);
        h.submapper = b[8] >> 4;
        h.prg_rom_bytes = nes2_rom_size(b[4], b[9] & 0x0F, 16 * kKiB);
        h.chr_rom_bytes = nes2_rom_size(b[5], b[9] >> 4, 8 * kKiB);
        h.tv = static_cast<TvSystem>(b[12] & 3);
    } else {
        if (!h.archaic) h.mapper |= b[7] & 0xF0;
        h.prg_rom_bytes = b[4] * 16 * kKiB;
        h.chr_rom_bytes = b[5] * 8 * kKiB;
        h.tv = !h.archaic && (b[9] & 1) ? TvSystem::Pal : TvSystem::Ntsc;
    }
    return h;
}

std::array<uint8_t, kInesHeaderSize> encode_ines(const InesHeader& h) {
    std::array<uint8_t, kInesHeaderSize> b{};
    std::memcpy(b.data(), kInesMagic, 4);
    b[4] = static_cast<uint8_t>(h.prg_rom_bytes / (16 * kKiB));
    b[5] = static_cast<uint8_t>(h.chr_rom_bytes / (8 * kKiB));
    b[6] = static_cast<uint8_t>((h.vertical_mirroring ? 1 : 0) | (h.battery ? 2 : 0) | (h.trainer ? 4 : 0) |
                                (h.four_screen ? 8 : 0) | (h.mapper & 0x0F) << 4);
    b[7] = static_cast<uint8_t>(h.mapper & 0xF0);
    b[9] = h.tv == TvSystem::Pal ? 1 : 0;
    return b;
}

InesHeader tetris_usa_header() {
    InesHeader h;
    h.mapper = 1;
    h.prg_rom_bytes = 2 * 16 * kKiB;
    h.chr_rom_bytes = 2 * 8 * kKiB;
    // MMC1 switches mirroring itself; the flag stays clear, as in the standard dump.
    h.vertical_mirroring = false;
    return h;
}

std::span<const KnownRom> known_roms() {
    // Tetris (USA): checksums from ROM databases (No-Intro), as listed in the project brief.
    // Tetris (Europe): the file SHA-1 is the brief's; its CRC32 and headerless checksums were
    // taken from an image assembled locally from the public disassembly (PAL=1) whose SHA-1
    // matched the brief's.
    static const KnownRom roms[] = {
        {"Tetris (USA)", "77747840541BFC62A28A5957692A98C550BD6B2B", 0x6D72C53A,
         "FD9079CB5E8479EB06D93C2AE5175BFCE871746A", 0x1394F57E, tetris_usa_header(), true, ""},
        {"Tetris (Europe)", "817169B819AADAAE52CCE6B3D8D2FC24270566D7", 0x8319B091,
         "66883B9EDDEC933E36B6BFF0479CEFD2434FFB40", 0xFDFF80D5, tetris_usa_header(), false,
         "it is the PAL version: 50 frames a second with its own gravity and DAS tables, while "
         "nestris-ai's code, hooks and frame timing are built for the NTSC game, Tetris (USA)"},
    };
    return roms;
}

std::string NestrisSignature::version() const {
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::optional<NestrisSignature> find_signature(std::span<const uint8_t> file, uint32_t this_build_id) {
    // Look only in PRG: CHR is graphics, and a header's own bytes are not code.
    size_t prg_start = 0, prg_size = file.size();
    std::optional<InesHeader> header = parse_ines(file);
    if (header) {
        prg_start = kInesHeaderSize + (header->trainer ? kTrainerSize : 0);
        prg_size = static_cast<size_t>(std::min<uint64_t>(header->prg_rom_bytes, file.size()));
    }
    if (prg_start >= file.size()) return std::nullopt;
    const auto prg = file.subspan(prg_start, std::min(prg_size, file.size() - prg_start));
    const auto magic = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(kSignatureMagic.data()),
                                                kSignatureMagic.size());
    const auto found = std::search(prg.begin(), prg.end(), magic.begin(), magic.end());
    if (found == prg.end() || static_cast<size_t>(prg.end() - found) < kSignatureSize) return std::nullopt;
    const size_t at = static_cast<size_t>(found - prg.begin());
    NestrisSignature s;
    s.file_offset = prg_start + at;
    // Tetris maps all of its 32 KiB of PRG at $8000: a CPU address means something only there.
    const bool tetris_layout = header ? header->prg_rom_bytes == 32 * kKiB : file.size() == 48 * kKiB;
    if (tetris_layout) s.cpu_address = static_cast<uint16_t>(0x8000 + at);
    const uint8_t* p = &prg[at + kSignatureMagic.size()];
    s.major = p[0];
    s.minor = p[1];
    s.patch = p[2];
    s.build_id = uint32_t{p[3]} | uint32_t{p[4]} << 8 | uint32_t{p[5]} << 16 | uint32_t{p[6]} << 24;
    s.this_build = s.build_id == this_build_id;
    return s;
}

size_t RomIdentity::payload_offset() const {
    if (!header) return 0;
    return kInesHeaderSize + (header->trainer ? kTrainerSize : 0);
}

std::string RomIdentity::summary() const {
    const std::string name = game ? std::string(game->name) : std::string();
    switch (kind) {
        case RomKind::Original: return name + ", the original (supported)";
        case RomKind::OriginalReheader:
            return name + " with a non-standard iNES header (supported: the patched ROM gets the standard header)";
        case RomKind::Headerless:
            return name + ", a headerless dump (supported: the patched ROM gets the standard iNES header)";
        case RomKind::Refused: return name + ": not supported, " + std::string(game->refusal);
        case RomKind::Patched:
            if (signature->sixteen_bytes_off)
                return "Tetris (USA) without its iNES header, patched 16 bytes off: nestris-ai's patch counts the "
                       "16-byte header the dump lacks, so every patched byte landed 16 bytes late and the game will "
                       "not run. Redo it from your unpatched dump with nestris-ai patch (it adds the header), or add "
                       "the header first and then apply nestris-ai.ips, or use nestris-ai.bps (it checks the dump)";
            if (!signature->intact())
                return "a damaged nestris-ai patch: the signature of nestris-ai " + signature->version() + ", build " +
                       crc32_hex(signature->build_id) + " (this build), but " + std::to_string(signature->differing_bytes) +
                       " of the " + std::to_string(signature->patched_bytes) +
                       " bytes its patch writes differ (patched with a generic IPS tool while the dump had no "
                       "header? Patch your Tetris (USA) with nestris-ai patch, or any tool after adding the header)";
            return "already patched by nestris-ai " + signature->version() + ", build " + crc32_hex(signature->build_id) +
                   (signature->this_build ? " (this build)" : " (not this build)");
        case RomKind::Unknown: return header ? "unknown NES ROM (not Tetris (USA))" : "unknown file (not Tetris (USA))";
    }
    return "?";
}

RomIdentity identify_rom(std::span<const uint8_t> file, const IdentifyContext& context) {
    RomIdentity id;
    id.file_size = file.size();
    id.file_sha1 = sha1_hex(file);
    id.file_crc32 = crc32_of(file);
    id.header = parse_ines(file);
    const size_t payload_at = std::min(id.payload_offset(), file.size());
    const auto payload = file.subspan(payload_at);
    id.payload_size = payload.size();
    id.payload_sha1 = sha1_hex(payload);
    id.payload_crc32 = crc32_of(payload);

    if (file.empty()) id.notes.push_back("the file is empty");
    if (id.header) {
        const uint64_t expected = id.header->expected_file_size();
        if (file.size() == kInesHeaderSize)
            id.notes.push_back("it holds only an iNES header, no game");
        else if (file.size() < expected)
            id.notes.push_back("truncated: the header describes " + std::to_string(expected) + " bytes, the file has " +
                               std::to_string(file.size()));
        else if (file.size() > expected)
            id.notes.push_back(std::to_string(file.size() - expected) +
                               " bytes follow the PRG and CHR the header describes");
    } else if (!file.empty()) {
        id.notes.push_back("no iNES header (a ROM file starts with \"NES\\x1A\")");
    }

    for (const KnownRom& known : context.catalogue) {
        if (id.file_sha1 != known.file_sha1) continue;
        id.kind = known.supported ? RomKind::Original : RomKind::Refused;
        id.game = &known;
        return id;
    }
    for (const KnownRom& known : context.catalogue) {
        if (id.payload_sha1 != known.payload_sha1 || payload.empty()) continue;
        id.game = &known;
        if (id.header) {
            id.kind = known.supported ? RomKind::OriginalReheader : RomKind::Refused;
            id.notes.push_back("its iNES header differs from the standard one (" + known.header.describe() +
                               "); the game's bytes are the original");
        } else {
            id.kind = known.supported ? RomKind::Headerless : RomKind::Refused;
            id.notes.push_back("headerless dump: the game's bytes without the 16-byte iNES header");
        }
        return id;
    }
    if ((id.signature = find_signature(file, context.this_build_id))) {
        id.kind = RomKind::Patched;
        if (id.signature->this_build && context.this_patch) {
            // The patch's offsets are those of a file with the 16-byte header.
            const auto differing = [&](int64_t shift) {
                uint32_t differ = 0, patched = 0;
                for (const IpsRecord& r : context.this_patch->records) {
                    for (uint32_t k = 0; k < r.length; ++k) {
                        const int64_t at = static_cast<int64_t>(r.offset) + k + shift;
                        ++patched;
                        if (at < 0 || static_cast<uint64_t>(at) >= file.size() ||
                            file[static_cast<size_t>(at)] != r.byte_at(k))
                            ++differ;
                    }
                }
                id.signature->patched_bytes = patched;
                return differ;
            };
            id.signature->differing_bytes = differing(id.header ? 0 : -static_cast<int64_t>(kInesHeaderSize));
            if (!id.header && id.signature->differing_bytes > 0 && differing(0) == 0) id.signature->sixteen_bytes_off = true;
        }
        return id;
    }
    if (id.header && id.header->tv == TvSystem::Pal)
        id.notes.push_back("its header marks a PAL game; nestris-ai patches only the NTSC game, Tetris (USA)");
    for (const KnownRom& known : context.catalogue) {
        if (!known.supported) continue;
        const uint64_t payload_size = known.header.prg_rom_bytes + known.header.chr_rom_bytes;
        if (id.header && encode_ines(*id.header) == encode_ines(known.header) && file.size() == payload_size + kInesHeaderSize)
            id.notes.push_back("header and size are those of " + std::string(known.name) +
                               ", but the checksum matches no known dump (a modified or bad dump?)");
        else if (!id.header && file.size() == payload_size)
            id.notes.push_back("the size of a headerless " + std::string(known.name) +
                               " dump, but the checksum matches no known dump");
    }
    return id;
}

namespace {

// Archives players often drop instead of the ROM inside them (magic numbers at offset 0).
struct Archive {
    std::string_view magic, name, verb;
};
constexpr Archive kArchives[] = {
    {{"PK\x03\x04", 4}, "zip", "unzip"},
    {{"PK\x05\x06", 4}, "zip", "unzip"},  // an empty zip
    {{"7z\xBC\xAF\x27\x1C", 6}, "7-Zip", "extract"},
    {{"Rar!\x1A\x07", 6}, "RAR", "extract"},
    {{"\x1F\x8B", 2}, "gzip", "extract"},
};

}  // namespace

std::string refusal_reason(std::span<const uint8_t> file, const RomIdentity& id, std::span<const KnownRom> catalogue) {
    if (id.kind == RomKind::Refused || id.kind == RomKind::Patched) return id.summary();
    const std::string_view start(reinterpret_cast<const char*>(file.data()), file.size());
    for (const Archive& a : kArchives) {
        if (start.starts_with(a.magic))
            return "it is a " + std::string(a.name) + " archive, not a ROM: " + std::string(a.verb) +
                   " it first, then open the .nes file inside it";
    }
    if (file.empty()) return "the file is empty";
    for (const KnownRom& known : catalogue) {
        // A known dump with bytes appended: its first bytes are the whole game, with or without header.
        const uint64_t whole = known.header.expected_file_size();
        for (const auto& [size, sha1] : {std::pair{whole, known.file_sha1}, std::pair{whole - kInesHeaderSize, known.payload_sha1}}) {
            if (file.size() <= size || sha1_hex(file.first(static_cast<size_t>(size))) != sha1) continue;
            return std::string(known.name) + " with " + std::to_string(file.size() - size) +
                   " extra bytes appended: its first " + std::to_string(size) + " bytes are the game (SHA-1 " +
                   std::string(sha1) + ") and the last " + std::to_string(file.size() - size) +
                   " are not part of it. " +
                   (known.supported ? "Remove them, or copy or dump the game again"
                                    : "And it is not supported: " + std::string(known.refusal));
        }
    }
    const KnownRom* wanted = nullptr;
    for (const KnownRom& known : catalogue) {
        if (known.supported && !wanted) wanted = &known;
    }
    if (!wanted) return id.summary();
    const std::string name(wanted->name);
    const bool games_header = id.header && encode_ines(*id.header) == encode_ines(wanted->header);
    // Cut short: the header is the game's, the file smaller than the header says (the bytes there
    // cannot be checked: no checksum of part of the game is known).
    const uint64_t whole = wanted->header.expected_file_size();
    if (games_header && file.size() < whole)
        return "a dump cut short: it has " + name + "'s iNES header, so it should be " + std::to_string(whole) +
               " bytes, but it has only " + std::to_string(file.size()) + " (" + std::to_string(whole - file.size()) +
               " missing). Copy or dump the game again, whole";
    std::string what;
    if (id.header && id.header->tv == TvSystem::Pal)
        what = "a PAL game (its iNES header says so; 50 frames a second): nestris-ai patches only the NTSC game, " + name;
    else if (games_header)
        what = "not " + name + " as dumped from the cartridge";
    else if (id.header)
        what = "another NES game, not " + name + " (" + id.header->describe() + ")";
    else
        what = "not " + name + " (no iNES header, and not a headerless dump of the game)";
    for (const std::string& note : id.notes) {
        // What identify found odd about the file (its header, its size), except what was said above.
        if (note.starts_with("no iNES header") || note.find("PAL") != std::string::npos) continue;
        what += "; " + note;
    }
    return what + ". nestris-ai needs " + name + ": SHA-1 " + std::string(wanted->file_sha1) +
           " with its iNES header (" + std::string(wanted->payload_sha1) + " without)";
}


}  // namespace nestris

#include "emu-test/debug/fm2.hpp"

#include "base/checksums.hpp"
#include "base/error_text.hpp"
#include "emu-test/controller.hpp"

#include <cstdio>
#include <cstring>

namespace nestris::emu {

namespace {

// Every piece of the file an error quotes goes through quoted_excerpt() (error_text.hpp): at
// most 60 characters, control bytes escaped, so a long field or an escape sequence in the file
// never reaches the terminal as such.
[[noreturn]] void fail(size_t line, const std::string& what) {
    throw Fm2Error("line " + std::to_string(line) + ": " + what);
}

// A decimal number, nothing else.
uint64_t parse_uint(std::string_view text, size_t line, std::string_view key, uint64_t max) {
    if (text.empty() || text.size() > 19) fail(line, std::string(key) + ": expected a number, got " + quoted_excerpt(text));
    uint64_t v = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') fail(line, std::string(key) + ": expected a number, got " + quoted_excerpt(text));
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    if (v > max) fail(line, std::string(key) + ": " + std::string(text) + " is larger than " + std::to_string(max));
    return v;
}

bool parse_bool(std::string_view text, size_t line, std::string_view key) {
    return parse_uint(text, line, key, 1) != 0;
}

int base64_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// FCEUX writes "base64:" + 24 characters; it also reads "0x" + 32 hex digits.
std::array<uint8_t, 16> parse_checksum(std::string_view text, size_t line) {
    std::array<uint8_t, 16> out{};
    if (text.substr(0, 7) == "base64:") {
        const std::string_view b = text.substr(7);
        if (b.size() != 24 || b.substr(22) != "==") fail(line, "romChecksum: expected base64: and 24 characters (16 bytes)");
        uint32_t acc = 0;
        int bits = 0;
        size_t n = 0;
        for (size_t i = 0; i < 22; ++i) {
            const int v = base64_value(b[i]);
            if (v < 0) fail(line, "romChecksum: " + quoted_excerpt(b.substr(i, 1)) + " is not a base64 character");
            acc = (acc << 6) | static_cast<uint32_t>(v);
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                out[n++] = static_cast<uint8_t>(acc >> bits);
            }
        }
        return out;
    }
    if (text.size() == 34 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        for (size_t i = 0; i < 16; ++i) {
            const int hi = hex_value(text[2 + 2 * i]), lo = hex_value(text[3 + 2 * i]);
            if (hi < 0 || lo < 0) fail(line, "romChecksum: not a hex digit");
            out[i] = static_cast<uint8_t>(hi * 16 + lo);
        }
        return out;
    }
    fail(line, "romChecksum: expected base64:... or 0x... (16 bytes), got " + quoted_excerpt(text));
}

void check_port(int value, size_t line, std::string_view key) {
    if (value == 0 || value == 1) return;
    if (value == 2) fail(line, std::string(key) + " 2: a Zapper; only the gamepad (1) or nothing (0) is supported");
    fail(line, std::string(key) + " " + std::to_string(value) + ": not a gamepad; only the gamepad (1) or nothing (0) is supported");
}

constexpr char kMnemonics[9] = "RLDUTSBA";  // bit 7 ... bit 0

uint8_t parse_pad(std::string_view field, size_t line, int port) {
    if (field.size() != 8) {
        fail(line, "controller " + std::to_string(port + 1) + ": expected 8 characters (RLDUTSBA or .), got " +
                       quoted_excerpt(field));
    }
    uint8_t bits = 0;
    for (size_t i = 0; i < 8; ++i) {
        const char c = field[i];
        if (c == kMnemonics[i]) {
            bits |= static_cast<uint8_t>(0x80 >> i);
        } else if (c != '.' && c != ' ') {
            fail(line, "controller " + std::to_string(port + 1) + ": " + quoted_excerpt(field.substr(i, 1)) + " in column " +
                           std::to_string(i + 1) + " (expected '" + kMnemonics[i] + "' or '.')");
        }
    }
    return bits;
}

// A header value stays on its line: a file name may hold a newline, which would end the field
// and start a line FCEUX reads as a key (or an input frame).
std::string one_line(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '_';
    }
    return out;
}

}  // namespace

Fm2Movie parse_fm2(std::string_view text) {
    Fm2Movie m;
    if (text.substr(0, 3) == "FCM") fail(1, "an old FCM movie, not FM2 (convert it with FCEUX)");
    size_t line_no = 0, pos = 0;
    bool in_records = false;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line_no == 1) {
            if (line != "version 3") fail(1, "an FM2 movie starts with 'version 3', this one with " + quoted_excerpt(line));
            m.version = 3;
            continue;
        }
        if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
        if (line[0] == '|') {
            in_records = true;
            // |commands|pad1|pad2|expansion|
            std::vector<std::string_view> f;
            size_t a = 1;
            for (;;) {
                const size_t b = line.find('|', a);
                if (b == std::string_view::npos) {
                    f.push_back(line.substr(a));
                    break;
                }
                f.push_back(line.substr(a, b - a));
                a = b + 1;
            }
            if (f.size() != 5 || !f[4].empty()) {
                fail(line_no, "expected |commands|controller 1|controller 2|| (5 '|'), got " + quoted_excerpt(line));
            }
            Fm2Frame fr;
            const uint64_t cmd = parse_uint(f[0], line_no, "commands", 255);
            if (cmd & ~uint64_t{fm2_command::Reset | fm2_command::Power}) {
                fail(line_no, "commands " + std::to_string(cmd) + ": only soft reset (1) and power (2) are supported (not FDS or VS)");
            }
            fr.commands = static_cast<uint8_t>(cmd);
            if (m.port0 == 1) fr.pad1 = parse_pad(f[1], line_no, 0);
            else if (!f[1].empty()) fail(line_no, "controller 1: input on a port the header says is empty (port0 0)");
            if (m.port1 == 1) {
                if (parse_pad(f[2], line_no, 1) != 0) fail(line_no, "controller 2 input: port 2 is not emulated (nothing is plugged in)");
            } else if (!f[2].empty()) {
                fail(line_no, "controller 2: input on a port the header says is empty (port1 0)");
            }
            if (!f[3].empty()) fail(line_no, "expansion port input is not supported");
            m.frames.push_back(fr);
            continue;
        }
        if (in_records) fail(line_no, "a header line after the input lines");
        const size_t sep = line.find_first_of(" \t");
        const std::string_view key = line.substr(0, sep);
        std::string_view value;
        if (sep != std::string_view::npos) {
            const size_t v = line.find_first_not_of(" \t", sep);
            if (v != std::string_view::npos) value = line.substr(v);
        }
        std::string_view trimmed = value;
        while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\t')) trimmed.remove_suffix(1);
        if (key == "version") {
            if (trimmed != "3") fail(line_no, "version " + quoted_excerpt(trimmed) + ": only version 3 is FM2");
        } else if (key == "emuVersion") {
            m.emu_version = static_cast<int>(parse_uint(trimmed, line_no, key, 99'999'999));
        } else if (key == "rerecordCount") {
            m.rerecord_count = static_cast<uint32_t>(parse_uint(trimmed, line_no, key, 0xFFFFFFFF));
        } else if (key == "palFlag") {
            if (parse_bool(trimmed, line_no, key)) fail(line_no, "palFlag 1: a PAL movie; this is an NTSC machine");
        } else if (key == "romFilename") {
            m.rom_filename = std::string(value);
        } else if (key == "romChecksum") {
            m.rom_md5 = parse_checksum(trimmed, line_no);
        } else if (key == "guid") {
            m.guid = std::string(trimmed);
        } else if (key == "fourscore") {
            if (parse_bool(trimmed, line_no, key)) fail(line_no, "fourscore 1: the Four Score is not supported");
        } else if (key == "microphone") {
            if (parse_bool(trimmed, line_no, key)) fail(line_no, "microphone 1: the Famicom microphone is not supported");
        } else if (key == "port0") {
            m.port0 = static_cast<int>(parse_uint(trimmed, line_no, key, 255));
            check_port(m.port0, line_no, key);
        } else if (key == "port1") {
            m.port1 = static_cast<int>(parse_uint(trimmed, line_no, key, 255));
            check_port(m.port1, line_no, key);
        } else if (key == "port2") {
            m.port2 = static_cast<int>(parse_uint(trimmed, line_no, key, 255));
            if (m.port2 != 0) fail(line_no, "port2 " + std::string(trimmed) + ": expansion port devices are not supported");
        } else if (key == "FDS") {
            if (parse_bool(trimmed, line_no, key)) fail(line_no, "FDS 1: a Famicom Disk System movie");
        } else if (key == "NewPPU") {
            if (parse_bool(trimmed, line_no, key)) {
                fail(line_no, "NewPPU 1: recorded with FCEUX's new PPU; the FCEUX power-on here is its default (old) PPU's");
            }
        } else if (key == "RAMInitOption") {
            m.ram_init_option = static_cast<int>(parse_uint(trimmed, line_no, key, 255));
            if (m.ram_init_option != 0 && m.ram_init_option != 2) {
                fail(line_no, "RAMInitOption " + std::string(trimmed) +
                                  ": only 0 (FCEUX's default pattern) and 2 (zeros) are supported");
            }
        } else if (key == "RAMInitSeed") {
            m.ram_init_seed = static_cast<uint32_t>(parse_uint(trimmed, line_no, key, 0xFFFFFFFF));
        } else if (key == "binary") {
            if (parse_bool(trimmed, line_no, key)) fail(line_no, "binary 1: a binary FM2 movie; only text movies are supported");
        } else if (key == "comment") {
            m.comments.emplace_back(value);
        } else if (key == "subtitle") {
            m.subtitles.emplace_back(value);
        } else if (key == "savestate") {
            if (!trimmed.empty()) fail(line_no, "savestate: the movie starts from a savestate, not from power-on");
        } else if (key == "saveram") {
            if (!trimmed.empty()) fail(line_no, "saveram: the movie starts with save RAM; not supported");
        }
        // Other keys (length, ...) are ignored, as FCEUX ignores keys it does not know.
    }
    if (m.version != 3) fail(1, "empty file: an FM2 movie starts with 'version 3'");
    return m;
}

std::array<uint8_t, 16> fceux_rom_md5(const Cartridge& cart) {
    std::vector<uint8_t> all(cart.prg.begin(), cart.prg.end());
    all.insert(all.end(), cart.chr.begin(), cart.chr.end());
    return md5(all);
}

std::string fm2_checksum_text(const std::array<uint8_t, 16>& d) {
    static constexpr char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out = "base64:";
    for (size_t i = 0; i < 16; i += 3) {
        const uint32_t v = (static_cast<uint32_t>(d[i]) << 16) | (i + 1 < 16 ? static_cast<uint32_t>(d[i + 1]) << 8 : 0) |
                           (i + 2 < 16 ? d[i + 2] : 0);
        out += kB64[(v >> 18) & 63];
        out += kB64[(v >> 12) & 63];
        out += i + 1 < 16 ? kB64[(v >> 6) & 63] : '=';
        out += i + 2 < 16 ? kB64[v & 63] : '=';
    }
    return out;
}

std::string fm2_header(const Cartridge& cart, std::string_view rom_filename, std::string_view comment) {
    const auto digest = fceux_rom_md5(cart);
    // A GUID in FCEUX's spelling, made from the checksum and the comment (the movie is ours, not
    // FCEUX's; without a comment, the checksum alone, as before comments named the run).
    std::array<uint8_t, 16> id = digest;
    if (!comment.empty()) {
        std::vector<uint8_t> seed(digest.begin(), digest.end());
        seed.insert(seed.end(), comment.begin(), comment.end());
        id = md5(seed);
    }
    char guid[40];
    std::snprintf(guid, sizeof guid, "%02X%02X%02X%02X-%02X%02X-%02X%02X-%02X%02X-%02X%02X%02X%02X%02X%02X", id[0],
                  id[1], id[2], id[3], id[4], id[5], id[6], id[7], id[8], id[9], id[10], id[11], id[12], id[13], id[14],
                  id[15]);
    std::string h = "version 3\nemuVersion 20605\nrerecordCount 0\npalFlag 0\n";
    h += "romFilename " + one_line(rom_filename) + "\n";
    h += "romChecksum " + fm2_checksum_text(digest) + "\n";
    h += "guid " + std::string(guid) + "\n";
    h += "fourscore 0\nmicrophone 0\nport0 1\nport1 0\nport2 0\nFDS 0\nNewPPU 0\nRAMInitOption 0\nRAMInitSeed 0\n";
    if (!comment.empty()) h += "comment " + one_line(comment) + "\n";
    return h;
}

std::string fm2_line(const Fm2Frame& frame) {
    std::string s(1, '|');
    s += std::to_string(frame.commands);
    s += '|';
    for (int i = 0; i < 8; ++i) s += (frame.pad1 & (0x80 >> i)) ? kMnemonics[i] : '.';
    return s + "|||\n";
}

Fm2Writer::Fm2Writer(const std::filesystem::path& target, const Cartridge& cart, std::string_view rom_filename,
                     std::string_view comment)
    : out_(target) {
    out_.write(fm2_header(cart, rom_filename, comment));
}

void Fm2Writer::frame(const Fm2Frame& f) {
    out_.write(fm2_line(f));
    ++frames_;
}

void Fm2Writer::finish() { out_.commit(); }

// ---- playing -------------------------------------------------------------------------------

void fm2_power_on(Nes& nes, const Fm2Movie& movie, PowerOn mode) {
    nes.power_on(mode);
    if (mode == PowerOn::Fceux && movie.ram_init_option == 2) {
        for (auto& b : nes.ram()) b = 0;
    }
}

RunStatus run_fm2_frame(Nes& nes, const Fm2Movie& movie, size_t i) {
    const Fm2Frame& f = movie.frames.at(i);
    if (f.commands & fm2_command::Power) fm2_power_on(nes, movie, nes.power_on_mode());
    if (f.commands & fm2_command::Reset) nes.reset();
    nes.set_buttons(f.pad1);
    // To the start of line 240: of this PPU frame if it is still ahead, else of the next one
    // (whose start depends on this frame's length, known only at its line 261: recomputed).
    constexpr uint64_t kLine240 = 240 * Ppu::kDotsPerLine;
    const Ppu& p = nes.ppu();
    const uint64_t aim = p.frame_start + kLine240 > nes.cycles() * 3 ? p.frame : p.frame + 1;
    for (;;) {
        const uint64_t target = p.frame == aim ? p.frame_start + kLine240 : p.frame_start + p.frame_length + kLine240;
        const uint64_t cycle = (target + 2) / 3;
        if (nes.cycles() >= cycle) return RunStatus::Reached;
        const RunStatus s = nes.run_cycles(cycle - nes.cycles());
        if (s != RunStatus::Reached) return s;
    }
}

}  // namespace nestris::emu

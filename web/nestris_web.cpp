// The web page's C++ (compiled to WebAssembly by emscripten): the same identification and
// patching as `nestris-ai identify` / `patch`, and the same embedded NES as the command line,
// bound to JavaScript with embind. Nothing here is a rewrite: it calls the patcher and emu-test
// layers. Results cross to JavaScript as JSON text and byte arrays.
#include "base/checksums.hpp"
#include "emu-test/controller.hpp"
#include "emu-test/nes.hpp"
#include "patcher/bps.hpp"
#include "patcher/ips.hpp"
#include "patcher/patch.hpp"
#include "patcher/patch_files.hpp"
#include "patcher/rom.hpp"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace nestris::web {
namespace {

std::span<const uint8_t> bytes_of(const std::string& s) {
    return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
        else if (c == '\n') out += "\\n";
        else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else out += static_cast<char>(c);
    }
    return out + "\"";
}

const char* kind_name(RomKind kind) {
    switch (kind) {
        case RomKind::Original: return "original";
        case RomKind::OriginalReheader: return "original-reheader";
        case RomKind::Headerless: return "headerless";
        case RomKind::Refused: return "refused";
        case RomKind::Patched: return "patched";
        case RomKind::Unknown: return "unknown";
    }
    return "unknown";
}

emscripten::val byte_array(const std::vector<uint8_t>& bytes) {
    // A copy owned by JavaScript (the view into wasm memory would not outlive the vector).
    return emscripten::val::global("Uint8Array")
        .new_(emscripten::typed_memory_view(bytes.size(), bytes.data()))
        .call<emscripten::val>("slice");
}

}  // namespace

// Identifies ROMs and patches them with the patch the page serves (nestris-ai.ips, which
// `nestris-ai build` wrote beside it).
class Patcher {
public:
    // Returns JSON {"version", "build"} or {"error"}.
    std::string load_patch(const std::string& ips_file) {
        try {
            patch_ = parse_ips(bytes_of(ips_file));
            const auto signature = patch_signature(patch_);
            if (!signature) return R"j({"error":"this IPS patch is not nestris-ai's (it writes no signature)"})j";
            build_id_ = signature->build_id;
            build_name_ = "nestris-ai " + signature->version() + ", build " + crc32_hex(build_id_);
            loaded_ = true;
            return "{\"version\":" + json_string(signature->version()) + ",\"build\":" +
                   json_string(crc32_hex(build_id_)) + "}";
        } catch (const std::exception& e) {
            return std::string("{\"error\":") + json_string(e.what()) + "}";
        }
    }

    // This build's BPS (nestris-ai.bps beside the page), so that identify can call it this
    // build's; without it a BPS is still described, only not named as this build's.
    void load_bps(const std::string& bps_file) { bps_.assign(bps_file.begin(), bps_file.end()); }

    // JSON: kind, summary, patchable, refusal (why not, for a player; "" when patchable), sha1,
    // crc32, size, notes. A patch file (IPS or BPS) is identified as `nestris-ai identify` does
    // (identify_patch_file): kind "patch", with format, readable, damage and this_build, its
    // facts as notes.
    std::string identify(const std::string& file) const {
        if (const auto patch = patch_identity(file)) {
            std::ostringstream o;
            const std::string summary = !patch->readable ? "a damaged " + patch->format + " patch"
                                        : patch->this_build ? build_name_ + "'s " + patch->format + " patch (this build)"
                                                            : "an " + patch->format + " patch";
            o << "{\"kind\":\"patch\",\"format\":" << json_string(patch->format)
              << ",\"readable\":" << (patch->readable ? "true" : "false") << ",\"damage\":" << json_string(patch->damage)
              << ",\"this_build\":" << (patch->this_build ? "true" : "false") << ",\"summary\":" << json_string(summary)
              << ",\"patchable\":false,\"sha1\":" << json_string(sha1_hex(bytes_of(file)))
              << ",\"crc32\":" << json_string(crc32_hex(crc32_of(bytes_of(file)))) << ",\"size\":" << file.size()
              << ",\"notes\":[";
            for (size_t i = 0; i < patch->lines.size(); ++i) o << (i ? "," : "") << json_string(patch->lines[i]);
            o << "]}";
            return o.str();
        }
        const RomIdentity id = identify_rom(bytes_of(file), {catalogue(), build_id_, loaded_ ? &patch_ : nullptr});
        std::ostringstream o;
        o << "{\"kind\":" << json_string(kind_name(id.kind)) << ",\"summary\":" << json_string(id.summary())
          << ",\"patchable\":" << (id.patchable() ? "true" : "false") << ",\"sha1\":" << json_string(id.file_sha1)
          << ",\"crc32\":" << json_string(crc32_hex(id.file_crc32)) << ",\"size\":" << id.file_size
          << ",\"payload_sha1\":" << json_string(id.payload_sha1)
          << ",\"payload_crc32\":" << json_string(crc32_hex(id.payload_crc32))
          << ",\"refusal\":" << json_string(id.patchable() ? "" : refusal_reason(bytes_of(file), id, catalogue()))
          << ",\"notes\":[";
        for (size_t i = 0; i < id.notes.size(); ++i) o << (i ? "," : "") << json_string(id.notes[i]);
        o << "]}";
        return o.str();
    }

    // {ok: true, bytes: Uint8Array, sha1, crc32, summary} or {ok: false, error}.
    emscripten::val patch(const std::string& file) const {
        emscripten::val out = emscripten::val::object();
        try {
            if (!loaded_) throw PatchError("the patch has not been loaded");
            const PatchedRom result = patch_rom(bytes_of(file), patch_, build_id_, catalogue());
            out.set("ok", true);
            out.set("bytes", byte_array(result.bytes));
            out.set("sha1", sha1_hex(result.bytes));
            out.set("crc32", crc32_hex(crc32_of(result.bytes)));
            out.set("summary", result.source.summary());
        } catch (const std::exception& e) {
            out.set("ok", false);
            out.set("error", std::string(e.what()));
        }
        return out;
    }

    // Applies a patch file (IPS or BPS, as dropped on the page) to a ROM file, as
    // `nestris-ai apply-ips` / `apply-bps` do (strictly: an IPS may not grow or cut the file; a
    // BPS checks its three CRC32s). This build's own patch on the supported original is applied
    // as `nestris-ai patch` does (any form of the dump, every byte checked).
    // {ok: true, bytes, sha1, crc32, summary} or {ok: false, error}.
    emscripten::val apply(const std::string& file, const std::string& patch_file) const {
        emscripten::val out = emscripten::val::object();
        try {
            const auto patch = patch_identity(patch_file);
            if (!patch) throw PatchError("not an IPS or BPS patch");
            if (!patch->readable) throw PatchError("a damaged " + patch->format + " patch: " + patch->damage);
            const RomIdentity id = identify_rom(bytes_of(file), {catalogue(), build_id_, loaded_ ? &patch_ : nullptr});
            std::vector<uint8_t> result;
            std::string summary;
            if (patch->this_build && loaded_ && id.patchable()) {
                const PatchedRom patched = patch_rom(bytes_of(file), patch_, build_id_, catalogue());
                result = patched.bytes;
                summary = "Patched " + patched.source.summary() + " with " + build_name_ + "'s " + patch->format +
                          " patch; every patched byte checked, every other byte unchanged.";
            } else if (patch->format == "IPS") {
                result = apply_ips(bytes_of(file), parse_ips(bytes_of(patch_file)));
                summary = "Applied the IPS patch to " + id.summary() + " (an IPS patch cannot check its file).";
            } else {
                try {
                    result = apply_bps(bytes_of(file), bytes_of(patch_file));
                } catch (const BpsError& e) {
                    std::string hint;
                    if (id.kind == RomKind::Headerless || id.kind == RomKind::OriginalReheader)
                        hint = " (the ROM is " + id.summary() +
                               "; BPS patches are made for the file with its standard header: open the ROM alone "
                               "to patch it)";
                    throw BpsError(e.what() + hint);
                }
                summary = "Applied the BPS patch to " + id.summary() + " (its source and result CRC32s checked).";
            }
            out.set("ok", true);
            out.set("bytes", byte_array(result));
            out.set("sha1", sha1_hex(result));
            out.set("crc32", crc32_hex(crc32_of(result)));
            out.set("summary", summary);
        } catch (const std::exception& e) {
            out.set("ok", false);
            out.set("error", std::string(e.what()));
        }
        return out;
    }

    // For the page's test only (never called by the page): accept one synthetic "game" in place
    // of Tetris (USA), so CI can patch a ROM that is not the game. Checksums in hex.
    void use_test_catalogue(const std::string& file_sha1, const std::string& payload_sha1, uint32_t file_crc,
                            uint32_t payload_crc) {
        test_names_ = {"Test ROM (synthetic, not a game)", file_sha1, payload_sha1};
        test_rom_ = KnownRom{test_names_[0], test_names_[1], file_crc, test_names_[2], payload_crc,
                             tetris_usa_header(), true, ""};
        testing_ = true;
    }

    std::string sha1(const std::string& data) const { return sha1_hex(bytes_of(data)); }

private:
    std::optional<PatchFileIdentity> patch_identity(const std::string& file) const {
        return identify_patch_file(bytes_of(file), {catalogue(), loaded_ ? &patch_ : nullptr, bps_, build_name_});
    }
    std::span<const KnownRom> catalogue() const {
        return testing_ ? std::span<const KnownRom>(&test_rom_, 1) : known_roms();
    }
    IpsPatch patch_;
    uint32_t build_id_ = 0;
    std::string build_name_;
    std::vector<uint8_t> bps_;
    bool loaded_ = false;
    bool testing_ = false;
    std::vector<std::string> test_names_;
    KnownRom test_rom_;
};

// The embedded NES, a frame at a time, with the picture as RGBA for a canvas.
class Console {
public:
    Console() { rgba_.resize(256 * 240 * 4, 255); }
    // Powers on a ROM; returns "" or why it cannot run. The sound stays on if it was.
    std::string load(const std::string& rom) {
        try {
            nes_ = std::make_unique<emu::Nes>(bytes_of(rom));
            if (sound_rate_) nes_->enable_sound(sound_rate_);
            return "";
        } catch (const std::exception& e) {
            nes_.reset();
            return e.what();
        }
    }
    void set_buttons(int buttons) {
        if (nes_) nes_->set_buttons(static_cast<uint8_t>(buttons));
    }
    // Runs one frame; false when nothing is loaded or the CPU has stopped (jammed, or about to run
    // code in PRG-RAM never written; stopMessage() says which, and where). The picture then stays.
    bool run_frame() {
        if (!nes_) return false;
        const emu::RunStatus s = nes_->run_frame();
        stop_message_ = s == emu::RunStatus::Reached ? "" : nes_->stop_message(s);
        return s == emu::RunStatus::Reached;
    }
    std::string stop_message() const { return stop_message_; }
    double frame() const { return nes_ ? static_cast<double>(nes_->frame()) : 0; }
    void reset() {
        if (nes_) nes_->reset();
    }
    // Sound from now on at `rate` Hz (the page's AudioContext's rate); "" or why not.
    std::string enable_sound(int rate) {
        try {
            if (nes_) nes_->enable_sound(rate);
            else emu::ApuSound(rate, 0);  // the rate checked all the same
            sound_rate_ = rate;
            return "";
        } catch (const std::exception& e) {
            return e.what();
        }
    }
    // The samples made since the last call (floats, about -1..1; none while the sound is off): a
    // view into wasm memory, copy it before the next call.
    emscripten::val samples() {
        samples_.clear();
        if (nes_) nes_->take_samples(samples_);
        return emscripten::val(emscripten::typed_memory_view(samples_.size(), samples_.data()));
    }
    // A byte of the CPU's RAM ($0000-$07FF), for the page's test.
    int read_ram(int addr) const { return nes_ ? nes_->read_ram(static_cast<uint16_t>(addr)) : -1; }
    // The picture just displayed, 256 x 240 RGBA (a view into wasm memory: copy it before the
    // next call).
    emscripten::val picture() {
        if (nes_) {
            nes_->screenshot(image_);
            for (size_t i = 0, n = static_cast<size_t>(image_.width) * image_.height; i < n; ++i) {
                rgba_[4 * i] = image_.rgb[3 * i];
                rgba_[4 * i + 1] = image_.rgb[3 * i + 1];
                rgba_[4 * i + 2] = image_.rgb[3 * i + 2];
            }
        }
        return emscripten::val(emscripten::typed_memory_view(rgba_.size(), rgba_.data()));
    }

private:
    std::unique_ptr<emu::Nes> nes_;
    std::string stop_message_;  // why the last frame did not end, or ""
    emu::Image image_{256, 240};
    std::vector<uint8_t> rgba_;
    int sound_rate_ = 0;  // 0: no sound
    std::vector<float> samples_;
};

// The controller's bit of each button, by the name the page gives it: the page's keys, touch
// controls, gamepads and chords read them here, so that controller.hpp stays their one source.
emscripten::val buttons() {
    namespace button = emu::button;
    emscripten::val bits = emscripten::val::object();
    bits.set("A", button::A);
    bits.set("B", button::B);
    bits.set("Select", button::Select);
    bits.set("Start", button::Start);
    bits.set("Up", button::Up);
    bits.set("Down", button::Down);
    bits.set("Left", button::Left);
    bits.set("Right", button::Right);
    return bits;
}

}  // namespace nestris::web

EMSCRIPTEN_BINDINGS(nestris) {
    using namespace nestris::web;
    emscripten::function("buttons", &buttons);
    emscripten::class_<Patcher>("Patcher")
        .constructor<>()
        .function("loadPatch", &Patcher::load_patch)
        .function("loadBps", &Patcher::load_bps)
        .function("identify", &Patcher::identify)
        .function("apply", &Patcher::apply)
        .function("patch", &Patcher::patch)
        .function("useTestCatalogue", &Patcher::use_test_catalogue)
        .function("sha1", &Patcher::sha1);
    emscripten::class_<Console>("Console")
        .constructor<>()
        .function("load", &Console::load)
        .function("setButtons", &Console::set_buttons)
        .function("runFrame", &Console::run_frame)
        .function("stopMessage", &Console::stop_message)
        .function("frame", &Console::frame)
        .function("reset", &Console::reset)
        .function("readRam", &Console::read_ram)
        .function("enableSound", &Console::enable_sound)
        .function("samples", &Console::samples)
        .function("picture", &Console::picture);
}

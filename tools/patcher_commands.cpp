// build, patch, identify, verify, apply-ips: the player-facing subcommands of nestris-ai.
// Each one reads its inputs whole, decides, and writes its output atomically (or not at all);
// failures print one clear message on stderr and leave a non-zero exit code.
#include "patcher_commands.hpp"

#include "cart_image.hpp"
#include "checksums.hpp"
#include "command_runner.hpp"
#include "file_io.hpp"
#include "ips.hpp"
#include "patch.hpp"
#include "rom.hpp"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>

namespace nestris {
namespace {
namespace fs = std::filesystem;

std::string hex(uint32_t v) { return crc32_hex(v); }


// tetris.nes -> tetris-nestris-ai.nes, next to the input.
fs::path default_patched_path(const fs::path& rom) {
    const std::string extension = rom.has_extension() ? rom.extension().string() : ".nes";
    return rom.parent_path() / (rom.stem().string() + "-nestris-ai" + extension);
}

void print_checksums(std::ostream& out, const char* label, uint64_t size, const std::string& sha1, uint32_t crc) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-9s %llu bytes, SHA-1 %s, CRC32 %s\n", label,
                  static_cast<unsigned long long>(size), sha1.c_str(), hex(crc).c_str());
    out << line;
}

void print_identity(std::ostream& out, const fs::path& path, const RomIdentity& id) {
    out << path.string() << ": " << id.summary() << "\n";
    print_checksums(out, "file", id.file_size, id.file_sha1, id.file_crc32);
    if (id.header) {
        print_checksums(out, "PRG+CHR", id.payload_size, id.payload_sha1, id.payload_crc32);
        out << "  iNES      " << id.header->describe() << "\n";
    } else {
        out << "  iNES      no header\n";
    }
    if (id.signature) {
        const NestrisSignature& s = *id.signature;
        char where[64];
        if (s.cpu_address)
            std::snprintf(where, sizeof where, "file offset $%05zX, CPU $%04X", s.file_offset, *s.cpu_address);
        else
            std::snprintf(where, sizeof where, "file offset $%05zX", s.file_offset);
        out << "  signature nestris-ai " << s.version() << ", build " << hex(s.build_id) << " (" << where << "); "
            << (s.this_build ? "this is that build" : "this nestris-ai is build " + hex(cart_build_id(shipped_cart())))
            << "\n";
    }
    for (const std::string& note : id.notes) out << "  note:     " << note << "\n";
}

void add_build(CLI::App& app) {
    auto output = std::make_shared<fs::path>("nestris-ai.ips");
    auto verbose = std::make_shared<bool>(false);
    CLI::App* sub = app.add_subcommand(
        "build", "Write the IPS patch of the cartridge code built into this nestris-ai. Needs no ROM.");
    sub->add_option("-o,--output", *output, "where to write the patch")->capture_default_str();
    sub->add_flag("--verbose", *verbose, "also print how much of each free ROM region the code uses");
    sub->footer("Prints the build id that the patched ROM carries in its signature (see\n"
                "`nestris-ai identify`); --verbose adds the use of each free ROM region.");
    sub->callback([output, verbose] {
        run_command("nestris-ai build", [&] {
            const CartImage& cart = shipped_cart();
            const IpsPatch patch = cart_patch(cart);
            const std::vector<uint8_t> bytes = serialize_ips(patch);
            write_file_atomically(*output, bytes, [&](std::span<const uint8_t> on_disk) {
                if (parse_ips(on_disk) != patch) throw FileError("the patch read back from disk differs");
            });
            uint32_t patched = 0, rle = 0;
            for (const IpsRecord& r : patch.records) {
                patched += r.length;
                rle += r.rle ? 1 : 0;
            }
            std::cout << "nestris-ai " << cart_version(cart) << ", build " << hex(cart_build_id(cart)) << "\n";
            if (*verbose) std::cout << "cartridge usage (bytes):\n" << cart.usage_report();
            std::cout << "wrote " << output->string() << ": " << bytes.size() << " bytes, "
                      << patch.records.size() << " record(s) (" << rle << " RLE), writing " << patched
                      << " bytes of Tetris (USA)\n";
            return 0;
        });
    });
}

void add_patch(CLI::App& app) {
    struct Options {
        fs::path rom, output;
        bool in_place = false;
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand("patch", "Apply the nestris-ai patch to your Tetris (USA) ROM.");
    sub->add_option("ROM", o->rom, "your Tetris (USA) ROM (with or without its iNES header)")->required();
    CLI::Option* out = sub->add_option("-o,--output", o->output,
                                       "the patched ROM (default: next to ROM, tetris.nes -> tetris-nestris-ai.nes)");
    sub->add_flag("--in-place", o->in_place, "overwrite ROM itself with the patched ROM")->excludes(out);
    sub->footer("Only Tetris (USA) is accepted, recognised by its checksum (SHA-1 " +
                std::string(known_roms()[0].file_sha1) +
                ").\nA headerless copy, or one with another header, is accepted and gets the standard iNES\n"
                "header. The result is checked byte for byte (every patched byte as intended, every other\n"
                "byte unchanged, as read back from disk) before it is renamed into place; on any failure\n"
                "nothing is written.\n"
                "Exit status: 0 patched; 1 refused or failed; 2 usage.");
    sub->callback([o] {
        run_command("nestris-ai patch", [&] {
            const fs::path target = o->in_place ? o->rom : o->output.empty() ? default_patched_path(o->rom) : o->output;
            if (!o->in_place && same_file(target, o->rom))
                throw FileError("the output " + target.string() + " is the input ROM; use --in-place to overwrite it");
            const std::vector<uint8_t> file = read_file(o->rom);
            const PatchedRom result = patch_rom(file, shipped_cart());
            std::cout << o->rom.string() << ": " << result.source.summary() << "\n";
            const bool existed = fs::exists(target);
            write_file_atomically(target, result.bytes, [&](std::span<const uint8_t> on_disk) {
                check_patched(result.original, result.patch, on_disk);
            });
            uint32_t patched = 0;
            for (const IpsRecord& r : result.patch.records) patched += r.length;
            std::cout << "patched " << patched << " bytes with nestris-ai " << cart_version(shipped_cart()) << ", build "
                      << hex(cart_build_id(shipped_cart())) << "\n"
                      << "checked: every patched byte as intended, every other byte unchanged (read back from disk)\n"
                      << "wrote " << target.string() << (existed ? " (replacing the file that was there)" : "") << ": "
                      << result.bytes.size() << " bytes\n"
                      << "SHA-1 " << sha1_hex(result.bytes) << "  CRC32 " << hex(crc32_of(result.bytes)) << "\n";
            return 0;
        });
    });
}

void add_identify(CLI::App& app) {
    auto path = std::make_shared<fs::path>();
    CLI::App* sub = app.add_subcommand("identify", "Say what a ROM file is, by its checksums.");
    sub->add_option("FILE", *path, "the file to look at")->required();
    sub->footer("Recognises Tetris (USA) (supported, with or without its header), Tetris (Europe)\n"
                "(refused: PAL), ROMs already patched by nestris-ai (version and build), and prints the\n"
                "checksums and iNES fields of anything else.\n"
                "Exit status: 0 recognised; 1 not a ROM or patch it knows, or unreadable; 2 usage.");
    sub->callback([path] {
        run_command("nestris-ai identify", [&] {
            const std::vector<uint8_t> file = read_file(*path);
            const RomIdentity id = identify_rom(file, this_build_context());
            print_identity(std::cout, *path, id);
            if (id.patchable()) std::cout << "  -> nestris-ai patch " << path->string() << "\n";
            const bool damaged = id.kind == RomKind::Patched && !id.signature->intact();
            return id.kind == RomKind::Unknown || damaged ? kExitFailed : 0;
        });
    });
}

void add_verify(CLI::App& app) {
    struct Options {
        fs::path rom, original;
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand("verify", "Check that a ROM is Tetris (USA) patched by this build of nestris-ai.");
    sub->add_option("ROM", o->rom, "the patched ROM")->required();
    sub->add_option("--original", o->original, "your unpatched Tetris (USA), to check every other byte too");
    sub->footer("Checks the signature (this build), the standard header and size, and every byte of\n"
                "this build's patch. No byte of the game is stored in nestris-ai, so the bytes the patch\n"
                "does not touch can only be compared with --original.\n"
                "Exit status: 0 all the checks made passed; 1 otherwise; 2 usage.");
    sub->callback([o] {
        run_command("nestris-ai verify", [&] {
            const std::vector<uint8_t> file = read_file(o->rom);
            const RomIdentity id = identify_rom(file, this_build_context());
            if (id.kind != RomKind::Patched) throw PatchError("not patched by nestris-ai: " + id.summary());
            if (!id.signature->this_build)
                throw PatchError(id.summary() + "; this nestris-ai is build " + hex(cart_build_id(shipped_cart())));
            const auto header = encode_ines(tetris_usa_header());
            const InesHeader& usa = known_roms()[0].header;
            if (file.size() != usa.expected_file_size() || !std::equal(header.begin(), header.end(), file.begin()))
                throw PatchError("the file is not a standard Tetris (USA) image: " +
                                 (id.header ? id.header->describe() : std::string("no iNES header")) + ", " +
                                 std::to_string(file.size()) + " bytes");
            const IpsPatch patch = cart_patch(shipped_cart());
            check_patch_in_place(patch, file);
            std::cout << o->rom.string() << ": " << id.summary() << "\n"
                      << "checked: standard header and size, every byte of this build's patch in place\n";
            if (o->original.empty()) {
                std::cout << "not checked: the game's other bytes (give --original tetris.nes to compare them)\n";
                return 0;
            }
            const std::vector<uint8_t> original_file = read_file(o->original);
            const RomIdentity original_id = identify_rom(original_file, this_build_context());
            if (!original_id.patchable())
                throw PatchError("--original " + o->original.string() + " is not the supported original: " +
                                 original_id.summary());
            check_patched(standard_original(original_file, original_id), patch, file);
            std::cout << "checked: every other byte equals " << o->original.string() << " (" << original_id.summary()
                      << ")\n";
            return 0;
        });
    });
}

void add_apply_ips(CLI::App& app) {
    struct Options {
        fs::path rom, patch, output;
        bool allow_growth = false, allow_truncation = false;
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand("apply-ips", "Apply any IPS patch to any file (a general tool).");
    sub->add_option("FILE", o->rom, "the file to patch")->required();
    sub->add_option("PATCH", o->patch, "the IPS patch")->required();
    sub->add_option("-o,--output", o->output, "the patched file (must not be FILE)")->required();
    sub->add_flag("--allow-grow", o->allow_growth,
                  "let records past the end of FILE grow it (zero-filled), as old appliers did");
    sub->add_flag("--allow-truncate", o->allow_truncation,
                  "let a truncation record (Lunar IPS extension) cut FILE short");
    sub->footer("The patch is read strictly: a malformed patch (bad header, a record cut short, no 'EOF')\n"
                "is refused with the byte offset of the problem. Supports RLE records and the Lunar IPS\n"
                "truncation record (reported; refused unless --allow-truncate). The output is written\n"
                "atomically, never onto FILE or PATCH.");
    sub->callback([o] {
        run_command("nestris-ai apply-ips", [&] {
            const std::vector<uint8_t> file = read_file(o->rom);
            IpsPatch patch;
            try {
                patch = parse_ips(read_file(o->patch));
            } catch (const IpsError& e) {
                throw IpsError(o->patch.string() + ": " + e.what());
            }
            const std::vector<uint8_t> result = apply_ips(file, patch, {o->allow_growth, o->allow_truncation});
            const std::vector<fs::path> inputs = {o->rom, o->patch};
            write_file_atomically(o->output, result, {}, inputs);
            std::cout << "applied " << patch.records.size() << " record(s) of " << o->patch.string() << " to "
                      << o->rom.string();
            if (patch.truncate_to)
                std::cout << " (its truncation record cut the file from " << file.size() << " to " << *patch.truncate_to
                          << " bytes)";
            std::cout << "\nwrote " << o->output.string() << ": " << result.size()
                      << " bytes, SHA-1 " << sha1_hex(result) << "  CRC32 " << hex(crc32_of(result)) << "\n";
            return 0;
        });
    });
}

}  // namespace

IdentifyContext this_build_context() {
    static const IpsPatch patch = cart_patch(shipped_cart());
    return {known_roms(), cart_build_id(shipped_cart()), &patch};
}

void add_patcher_commands(CLI::App& app) {
    add_build(app);
    add_patch(app);
    add_identify(app);
    add_verify(app);
    add_apply_ips(app);
}

}  // namespace nestris

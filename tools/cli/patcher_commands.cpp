// build, patch, identify, verify, apply-ips: the player-facing subcommands of nestris-ai.
// Each one reads its inputs whole, decides, and writes its output atomically (or not at all);
// failures print one clear message on stderr and leave a non-zero exit code.
#include "tools/cli/patcher_commands.hpp"

#include "base/checksums.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "dist/release_record_text.hpp"
#include "patcher/bps.hpp"
#include "patcher/cart_image.hpp"
#include "patcher/ips.hpp"
#include "patcher/patch.hpp"
#include "patcher/patch_files.hpp"
#include "patcher/release_record.hpp"
#include "patcher/rom.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>

namespace nestris {
namespace {
namespace fs = std::filesystem;


// tetris.nes -> tetris-nestris-ai.nes, next to the input.
fs::path default_patched_path(const fs::path& rom) {
    const std::string extension = rom.has_extension() ? rom.extension().string() : ".nes";
    return rom.parent_path() / (rom.stem().string() + "-nestris-ai" + extension);
}

std::string build_name() {
    return "nestris-ai " + cart_version(shipped_cart()) + ", build " + crc32_hex(cart_build_id(shipped_cart()));
}

// The source of the BPS: Tetris (USA) with its standard header.
const KnownRom& bps_source() { return known_roms()[0]; }

std::vector<uint8_t> bps_for(const IpsPatch& patch, uint32_t patched_crc32) {
    return bps_from_ips(patch, bps_source().header.expected_file_size(), bps_source().file_crc32, patched_crc32);
}

// The patched ROM's CRC32 for this build as the release record gives it; throws when the record
// is of another build (the code changed since dist/ was written).
uint32_t recorded_patched_crc32() {
    if (kRecordedReleaseText.empty())
        throw PatchError("no release record (dist/release.txt) was compiled in, so the patched ROM's CRC32, which "
                         "the BPS needs, is unknown: give --rom tetris.nes, or --no-bps");
    const ReleaseRecord record = parse_release_record(kRecordedReleaseText);
    const uint32_t build = cart_build_id(shipped_cart());
    if (record.build_id != build)
        throw PatchError("the release record (dist/release.txt) is of build " + crc32_hex(record.build_id) + ", this is build " +
                         crc32_hex(build) + " (the cartridge code changed since): the BPS needs this build's patched ROM's "
                         "CRC32, so give --rom tetris.nes (and refresh dist/ with nestris-ai release), or --no-bps");
    return record.patched_crc32;
}

void print_checksums(std::ostream& out, const char* label, uint64_t size, const std::string& sha1, uint32_t crc) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-9s %llu bytes, SHA-1 %s, CRC32 %s\n", label,
                  static_cast<unsigned long long>(size), sha1.c_str(), crc32_hex(crc).c_str());
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
        out << "  signature nestris-ai " << s.version() << ", build " << crc32_hex(s.build_id) << " (" << where << "); "
            << (s.this_build ? "this is that build" : "this nestris-ai is build " + crc32_hex(cart_build_id(shipped_cart())))
            << "\n";
    }
    for (const std::string& note : id.notes) out << "  note:     " << note << "\n";
}

void add_build(CLI::App& app) {
    struct Options {
        fs::path ips = "nestris-ai.ips", bps, rom;
        bool no_bps = false, verbose = false;
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand(
        "build", "Write the IPS and BPS patches of the cartridge code built into this nestris-ai. Needs no ROM.");
    sub->add_option("-o,--output", o->ips, "where to write the IPS patch")->capture_default_str();
    CLI::Option* bps_option =
        sub->add_option("--bps", o->bps, "where to write the BPS patch (default: beside the IPS, ending .bps)");
    sub->add_flag("--no-bps", o->no_bps, "write the IPS patch only")->excludes(bps_option);
    sub->add_option("--rom", o->rom, "your Tetris (USA): the BPS's target checksum is then computed, not read from "
                                     "the release record");
    sub->add_flag("--verbose", o->verbose, "also print how much of each free ROM region the code uses");
    sub->footer("The BPS carries the CRC32 of the ROM it makes, which needs the game to compute: without\n"
                "--rom it is read from the release record compiled in (dist/release.txt), which must be of\n"
                "this build. Both patches are for Tetris (USA) with its standard iNES header.\n"
                "Prints the build id that the patched ROM carries in its signature (see\n"
                "`nestris-ai identify`); --verbose adds the use of each free ROM region.");
    sub->callback([o] {
        run_command("nestris-ai build", [&] {
            const CartImage& cart = shipped_cart();
            const IpsPatch patch = cart_patch(cart);
            const std::vector<uint8_t> ips = serialize_ips(patch);
            std::vector<uint8_t> bps;
            uint32_t patched_crc = 0;
            if (o->bps.empty()) o->bps = fs::path(o->ips).replace_extension(".bps");
            if (!o->no_bps) {  // decided before anything is written
                if (same_file(o->ips, o->bps)) throw UsageError("the IPS and the BPS would be the same file");
                patched_crc =
                    o->rom.empty() ? recorded_patched_crc32() : crc32_of(patch_rom(read_file(o->rom), cart).bytes);
                bps = bps_for(patch, patched_crc);
            }
            const std::vector<fs::path> inputs = o->rom.empty() ? std::vector<fs::path>{} : std::vector<fs::path>{o->rom};
            write_file_atomically(o->ips, ips, [&](std::span<const uint8_t> on_disk) {
                if (parse_ips(on_disk) != patch) throw FileError("the patch read back from disk differs");
            }, inputs);
            uint32_t patched = 0, rle = 0;
            for (const IpsRecord& r : patch.records) {
                patched += r.length;
                rle += r.rle ? 1 : 0;
            }
            std::cout << build_name() << "\n";
            if (o->verbose) std::cout << "cartridge usage (bytes):\n" << cart.usage_report();
            std::cout << "wrote " << o->ips.string() << ": " << ips.size() << " bytes, SHA-1 " << sha1_hex(ips) << ", "
                      << patch.records.size() << " record(s) (" << rle << " RLE), writing " << patched
                      << " bytes of Tetris (USA)\n";
            if (!o->no_bps) {
                write_file_atomically(o->bps, bps, [&](std::span<const uint8_t> on_disk) { parse_bps(on_disk); }, inputs);
                std::cout << "wrote " << o->bps.string() << ": " << bps.size() << " bytes, SHA-1 " << sha1_hex(bps)
                          << ", from Tetris (USA) (CRC32 " << crc32_hex(bps_source().file_crc32)
                          << ") to the patched ROM (CRC32 " << crc32_hex(patched_crc) << ")\n";
            }
            return 0;
        });
    });
}

void add_release(CLI::App& app) {
    struct Options {
        fs::path rom, dir;
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand(
        "release", "Maintainers: write the release files (IPS, BPS, release record) of this build into a folder.");
    sub->group("Maintainers");
    sub->add_option("--rom", o->rom, "your Tetris (USA), for the patched ROM's checksums")->required();
    sub->add_option("--dir", o->dir, "the folder to write nestris-ai.ips, nestris-ai.bps and release.txt into (dist)")
        ->required();
    sub->footer("Patches the ROM in memory (checked byte for byte), builds the BPS with the patched ROM's\n"
                "CRC32, checks that the BPS applied to the ROM gives the same bytes, then writes the three\n"
                "files. Commit them with the code they were built from; the tests check that the build\n"
                "still makes them.");
    sub->callback([o] {
        run_command("nestris-ai release", [&] {
            if (!fs::is_directory(o->dir)) throw FileError(o->dir.string() + " is not a folder");
            const CartImage& cart = shipped_cart();
            const PatchedRom patched = patch_rom(read_file(o->rom), cart);
            const IpsPatch& patch = patched.patch;
            const std::vector<uint8_t> ips = serialize_ips(patch);
            const std::vector<uint8_t> bps = bps_for(patch, crc32_of(patched.bytes));
            if (apply_bps(patched.original, bps) != patched.bytes)
                throw PatchError("the BPS applied to the ROM does not give the patched ROM (a bug)");
            ReleaseRecord record{cart_version(cart), cart_build_id(cart), sha1_hex(ips), sha1_hex(bps),
                                 sha1_hex(patched.bytes), crc32_of(patched.bytes)};
            const std::vector<fs::path> inputs = {o->rom};
            write_file_atomically(o->dir / "nestris-ai.ips", ips, {}, inputs);
            write_file_atomically(o->dir / "nestris-ai.bps", bps, {}, inputs);
            write_text_atomically(o->dir / "release.txt", format_release_record(record), inputs);
            std::cout << build_name() << ": wrote " << (o->dir / "nestris-ai.ips").string() << ", "
                      << (o->dir / "nestris-ai.bps").string() << " and " << (o->dir / "release.txt").string() << "\n"
                      << "  nestris-ai.ips      SHA-1 " << record.ips_sha1 << "\n"
                      << "  nestris-ai.bps      SHA-1 " << record.bps_sha1 << "\n"
                      << "  patched ROM         SHA-1 " << record.patched_sha1 << "  CRC32 " << crc32_hex(record.patched_crc32)
                      << "\n(README.md quotes these; rebuild so that build reads the new record.)\n";
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
            if (o->in_place) replaces_input(o->rom);
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
                      << crc32_hex(cart_build_id(shipped_cart())) << "\n"
                      << "checked: every patched byte as intended, every other byte unchanged (read back from disk)\n"
                      << "wrote " << target.string() << (existed ? " (replacing the file that was there)" : "") << ": "
                      << result.bytes.size() << " bytes\n"
                      << "SHA-1 " << sha1_hex(result.bytes) << "  CRC32 " << crc32_hex(crc32_of(result.bytes)) << "\n";
            return 0;
        });
    });
}

void add_identify(CLI::App& app) {
    auto path = std::make_shared<fs::path>();
    CLI::App* sub = app.add_subcommand("identify", "Say what a ROM file is, by its checksums.");
    sub->add_option("FILE", *path, "the file to look at")->required();
    sub->footer("Recognises Tetris (USA) (supported, with or without its header), Tetris (Europe)\n"
                "(refused: PAL), ROMs already patched by nestris-ai (version and build; a headerless dump\n"
                "patched 16 bytes off by a generic IPS tool is named as such), IPS and BPS patches (what\n"
                "they write and for which file; this build's own), and prints the checksums and iNES\n"
                "fields of anything else, and why it cannot be patched (an archive to unzip first, a dump\n"
                "cut short or with bytes appended, a PAL game, another game: the SHA-1 it needs).\n"
                "Exit status: 0 recognised; 1 not a ROM or patch it knows, damaged, or unreadable; 2 usage.");
    sub->callback([path] {
        run_command("nestris-ai identify", [&] {
            const std::vector<uint8_t> file = read_file(*path);
            const IpsPatch& ips = *this_build_context().this_patch;
            std::vector<uint8_t> bps;
            try {
                bps = bps_for(ips, recorded_patched_crc32());
            } catch (const PatchError&) {
                // no release record of this build: a BPS cannot be called this build's
            }
            if (const auto patch = identify_patch_file(file, {known_roms(), &ips, bps, build_name()})) {
                std::cout << path->string() << ": " << (patch->readable ? "" : "a damaged ") << patch->format
                          << " patch\n";
                print_checksums(std::cout, "file", file.size(), sha1_hex(file), crc32_of(file));
                for (const std::string& line : patch->lines) std::cout << "  " << line << "\n";
                // What is wrong with it is the error line (stderr, exit 1), said once.
                if (!patch->readable) throw PatchError(path->string() + ": " + patch->damage);
                return 0;
            }
            const RomIdentity id = identify_rom(file, this_build_context());
            print_identity(std::cout, *path, id);
            if (id.patchable()) std::cout << "  -> nestris-ai patch " << path->string() << "\n";
            // A file it does not know: why it cannot be patched is the error line (the page's too).
            if (id.kind == RomKind::Unknown)
                throw PatchError(path->string() + " cannot be patched: " + refusal_reason(file, id, known_roms()));
            // A damaged patched ROM: what is wrong is the error line too (exit 1 says why).
            if (id.kind == RomKind::Patched && !id.signature->intact())
                throw PatchError(path->string() + ": " + id.summary());
            return 0;
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
    sub->footer("Checks the signature (this build), the header (the standard one with the PRG-RAM the patch\n"
                "declares: flags 6's battery bit) and size, and every byte of\n"
                "this build's patch. No byte of the game is stored in nestris-ai, so the bytes the patch\n"
                "does not touch can only be compared with --original.\n"
                "Exit status: 0 all the checks made passed; 1 otherwise; 2 usage.");
    sub->callback([o] {
        run_command("nestris-ai verify", [&] {
            const std::vector<uint8_t> file = read_file(o->rom);
            const RomIdentity id = identify_rom(file, this_build_context());
            if (id.kind != RomKind::Patched) throw PatchError("not patched by nestris-ai: " + id.summary());
            if (!id.signature->this_build)
                throw PatchError(id.summary() + "; this nestris-ai is build " + crc32_hex(cart_build_id(shipped_cart())));
            auto header = encode_ines(tetris_usa_header());  // as the patch leaves it: PRG-RAM declared
            if (cart_has_prg_ram(shipped_cart())) header[kInesFlags6Offset] |= kInesFlags6Battery;
            const InesHeader& usa = known_roms()[0].header;
            if (file.size() != usa.expected_file_size() || !std::equal(header.begin(), header.end(), file.begin()))
                throw PatchError("the file is not Tetris (USA) with the patch's header and size: " +
                                 (id.header ? id.header->describe() : std::string("no iNES header")) + ", " +
                                 std::to_string(file.size()) + " bytes");
            const IpsPatch patch = cart_patch(shipped_cart());
            check_patch_in_place(patch, file);
            std::cout << o->rom.string() << ": " << id.summary() << "\n"
                      << "checked: header (the standard one, PRG-RAM declared) and size, every byte of this build's patch in place\n";
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

// What a truncation record did: it sets the file's size, which may cut it or grow it.
std::string truncation_effect(uint64_t before, uint64_t after) {
    if (after == before) return "its truncation record left the file at " + std::to_string(after) + " bytes";
    return std::string("its truncation record ") + (after < before ? "cut" : "grew") + " the file from " + std::to_string(before) + " to " + std::to_string(after) +
           " bytes";
}

// A nestris-ai patch, of any build, is the one that writes the signature (asm/signature.s).
bool writes_nestris_signature(const IpsPatch& patch) {
    return std::any_of(patch.records.begin(), patch.records.end(), [](const IpsRecord& r) {
        return !r.rle && std::search(r.data.begin(), r.data.end(), kSignatureMagic.begin(), kSignatureMagic.end()) !=
                             r.data.end();
    });
}

// IPS offsets count the file's bytes as they are, so a patch made for the game with its 16-byte
// iNES header, applied to a headerless dump, puts every byte 16 bytes off: a file that will not
// run, which a generic IPS tool writes without a word. For a nestris-ai patch we know that is the
// case: refused, unless --force (BPS refuses it by its source checksum).
void refuse_headerless_dump(const std::vector<uint8_t>& file, const IpsPatch& patch, const fs::path& file_path) {
    if (!writes_nestris_signature(patch)) return;
    const RomIdentity id = identify_rom(file, this_build_context());
    if (id.kind != RomKind::Headerless) return;
    throw PatchError(file_path.string() + " is " + id.summary() +
                     ", and this nestris-ai patch is for the game with its 16-byte iNES header: every byte would "
                     "land 16 bytes off and the game would not run. Use nestris-ai patch " + file_path.string() +
                     " (it adds the header), or --force to apply it anyway");
}

void add_apply_ips(CLI::App& app) {
    struct Options {
        fs::path rom, patch, output;
        bool allow_growth = false, allow_truncation = false, force = false;
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
    sub->add_flag("--force", o->force,
                  "apply a nestris-ai patch to a headerless dump of the game anyway (the result will not run)");
    sub->footer("The patch is read strictly: a malformed patch (bad header, a record cut short, no 'EOF')\n"
                "is refused with the byte offset of the problem. Supports RLE records and the Lunar IPS\n"
                "truncation record (reported; refused unless --allow-truncate). The output is written\n"
                "atomically, never onto FILE or PATCH.\n"
                "A nestris-ai patch is made for Tetris (USA) with its iNES header: on a headerless dump its\n"
                "bytes would land 16 bytes off, so that is refused (nestris-ai patch adds the header);\n"
                "--force applies it anyway. Any other patch is applied to any file as it is.");
    sub->callback([o] {
        run_command("nestris-ai apply-ips", [&] {
            const std::vector<uint8_t> file = read_file(o->rom);
            IpsPatch patch;
            try {
                patch = parse_ips(read_file(o->patch));
            } catch (const IpsError& e) {
                throw IpsError(o->patch.string() + ": " + e.what());
            }
            if (!o->force) refuse_headerless_dump(file, patch, o->rom);
            const std::vector<uint8_t> result = apply_ips(file, patch, {o->allow_growth, o->allow_truncation});
            const std::vector<fs::path> inputs = {o->rom, o->patch};
            write_file_atomically(o->output, result, {}, inputs);
            std::cout << "applied " << patch.records.size() << " record(s) of " << o->patch.string() << " to "
                      << o->rom.string();
            if (patch.truncate_to) std::cout << " (" << truncation_effect(file.size(), *patch.truncate_to) << ")";
            std::cout << "\nwrote " << o->output.string() << ": " << result.size()
                      << " bytes, SHA-1 " << sha1_hex(result) << "  CRC32 " << crc32_hex(crc32_of(result)) << "\n";
            return 0;
        });
    });
}

void add_apply_bps(CLI::App& app) {
    struct Options {
        fs::path file, patch, output;
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand("apply-bps", "Apply any BPS patch to any file (a general tool).");
    sub->add_option("FILE", o->file, "the file to patch")->required();
    sub->add_option("PATCH", o->patch, "the BPS patch")->required();
    sub->add_option("-o,--output", o->output, "the patched file (must not be FILE)")->required();
    sub->footer("Strict, as the format intends: the patch's own CRC32, the file's size and CRC32 before, and\n"
                "the result's CRC32 after are all checked, and nothing is written unless all three match.\n"
                "The output is written atomically, never onto FILE or PATCH.");
    sub->callback([o] {
        run_command("nestris-ai apply-bps", [&] {
            const std::vector<uint8_t> file = read_file(o->file);
            const std::vector<uint8_t> patch = read_file(o->patch);
            std::vector<uint8_t> result;
            try {
                result = apply_bps(file, patch);
            } catch (const BpsError& e) {
                std::string hint;
                const RomIdentity id = identify_rom(file, this_build_context());
                if (id.kind == RomKind::Headerless || id.kind == RomKind::OriginalReheader)
                    hint = " (" + o->file.string() + " is " + id.summary() +
                           "; BPS patches are made for the file with its standard header: nestris-ai patch "
                           "adds it)";
                throw BpsError(o->patch.string() + ": " + e.what() + hint);
            }
            const std::vector<fs::path> inputs = {o->file, o->patch};
            write_file_atomically(o->output, result, {}, inputs);
            std::cout << "applied " << o->patch.string() << " to " << o->file.string()
                      << " (patch, source and result CRC32s checked)\n"
                      << "wrote " << o->output.string() << ": " << result.size() << " bytes, SHA-1 "
                      << sha1_hex(result) << "  CRC32 " << crc32_hex(crc32_of(result)) << "\n";
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
    add_apply_bps(app);
    add_release(app);
}

}  // namespace nestris

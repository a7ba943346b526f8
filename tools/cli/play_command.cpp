// play: watch the patched game headless in the embedded NES. The user's ROM is patched in memory
// with this build's patch (or taken as it is if it is already this build's patched ROM); the
// menus are walked like a player would, then the AI plays and the command reports what it saw.
#include "tools/cli/play_command.hpp"
#include "tools/cli/play_summary.hpp"

#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "emu-test/debug/emu_commands.hpp"
#include "emu-test/debug/fm2.hpp"
#include "emu-test/image.hpp"
#include "emu-test/input.hpp"
#include "emu-test/nes.hpp"
#include "emu-test/wav.hpp"
#include "game/hooks_map.hpp"
#include "patcher/cart_image.hpp"
#include "patcher/patch.hpp"
#include "patcher/rom.hpp"
#include "tools/cli/command_line.hpp"
#include "tools/cli/patcher_commands.hpp"
#include "tools/harness/coach_run.hpp"
#include "tools/harness/game_driver.hpp"
#include "tools/harness/game_harness.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

namespace nestris {
namespace {

struct PlayOptions {
    std::string rom;
    int level = 19;
    bool level_given = false, height_given = false;  // a default that goes unused is fine, a value typed is not
    int title_wait = 0;
    bool title_wait_given = false;
    bool b_type = false;
    int height = 0;
    bool demo = false;
    bool human = false;
    bool coach = false;
    bool hate = false;
    uint64_t frames = 3600;
    std::string input;
    std::string movie;
    std::string power_on = "hardware";
    std::string write_movie;
    std::string png;
    uint64_t png_every = 0;
    int png_scale = 1;
    bool soak = false;
    bool to_the_end = false;
    std::string wav;
    std::optional<int> sample_rate;  // --wav's (48 000 Hz when not given)
};


// The most frames a run asks for: a bound that says so (2^64 was taken, and ran without end).
constexpr uint64_t kMaxPlayFrames = 100'000'000;
// --write-movie's bound: `play --movie` reads a movie of at most kMaxTextInput (64 MiB), 16 bytes
// a frame (4 194 304 frames); this leaves room for the menu walk, a soak's presses and the header.
constexpr uint64_t kMaxMovieRunFrames = 4'000'000;

// The shortest run that reports its progress: 5 minutes of the game, some 3 s of emulation (a
// shorter one is over before a bar or a line would help, and the default minute prints nothing).
constexpr uint64_t kProgressFrames = 18'000;

// The frames play waits at the title for the demo to start, at most.
constexpr uint64_t kMaxDemoWait = 4000;

// The options that do not go together, or are out of their range: usage errors before anything
// is read.
void check_play_options(const PlayOptions& o) {
    if (o.level < 0 || o.level > 19) throw UsageError("--level is 0-19 (10-19 with the A trick)");
    if (o.height < 0 || o.height > 5) throw UsageError("--height is 0-5");
    if (o.height && !o.b_type) throw UsageError("--height is for B-Type games (add --b-type)");
    if (!o.input.empty() && !o.movie.empty()) throw UsageError("--input and --movie: give one of them");
    const bool own_input = !o.input.empty() || !o.movie.empty();
    if (o.demo && (own_input || o.human)) throw UsageError("--demo goes alone (not with --input, --movie or --human)");
    if (o.coach && (o.demo || o.human || own_input))
        throw UsageError("--coach starts its own game (not with --demo, --human, --input or --movie)");
    if (o.hate && (o.demo || o.human || own_input))
        throw UsageError("--hate is for AI and coach games (not with --demo, --human, --input or --movie)");
    if (o.soak && (o.demo || o.human || o.coach || own_input))
        throw UsageError("--soak is for AI games (not with --demo, --human, --coach, --input or --movie)");
    if (!o.write_movie.empty() && !o.movie.empty())
        throw UsageError("--write-movie is not for --movie (the run is your movie, then nothing pressed)");
    // FCEUX plays a movie from its own power-on (its RAM pattern, two frames without a vblank), and
    // the game's pieces come from the frames it counts: only a run from that power-on replays there.
    if (!o.write_movie.empty() && o.power_on != "fceux")
        throw UsageError("--write-movie needs --power-on fceux (FCEUX replays a movie from its own power-on: a run "
                         "from the hardware's would be another game there)");
    if (!o.write_movie.empty() && o.frames > kMaxMovieRunFrames)
        throw UsageError("--write-movie: at most " + std::to_string(kMaxMovieRunFrames) +
                         " frames (longer movies would be too large for play --movie to read back)");
    // The game's options choose what the menu walk picks: without the menu walk (the demo, your
    // own input or movie) nothing would use them, so they are refused rather than ignored.
    if (o.title_wait < 0 || o.title_wait > game::kMaxTitleWait)
        throw UsageError("--title-wait is 0-" + std::to_string(game::kMaxTitleWait) +
                         " (from " + std::to_string(game::kMaxTitleWait + 1) + " the walk's presses land in a paused game)");
    if (o.to_the_end && (o.soak || o.demo))
        throw UsageError("--to-the-end is for one game (not with --soak or --demo: the demo ends without a curtain)");
    if (o.title_wait_given && o.soak) throw UsageError("--title-wait is for one game (not with --soak)");
    const bool game_options = o.level_given || o.b_type || o.height_given || o.title_wait_given;
    if (o.demo && game_options)
        throw UsageError("--demo excludes --level, --b-type, --height and --title-wait (the demo is its own game)");
    if (own_input && (game_options || o.human))
        throw UsageError("--input and --movie exclude --level, --b-type, --height, --title-wait and --human (your input walks the menus)");
    if (o.png_every && o.png.empty()) throw UsageError("--png-every needs --png (the pictures are named after it)");
    if (o.png_scale != 1 && o.png.empty()) throw UsageError("--png-scale is for --png");
    if (o.sample_rate && o.wav.empty()) throw UsageError("--sample-rate is for --wav");
    if (!o.wav.empty() && o.soak) throw UsageError("--wav is not for --soak (a soak's sound would fill the memory)");
}

// The menu walk's input: the game the options choose, from power-on.
std::string walk_input(const PlayOptions& o) {
    return game::menu_walk_input({.level = o.level, .b_type = o.b_type, .height = o.height, .ai = !o.human && !o.coach,
                                  .title_wait = o.title_wait, .coach = o.coach, .hate = o.hate});
}

// The frames --wav hears: from power-on (your input or movie, the menu walk, or the wait for the
// demo), then the run's --frames; at most kMaxWavFrames. The 4 000 frames the demo may take to
// start count whole.
void check_wav_frames(const PlayOptions& o, const emu::Fm2Movie* movie) {
    if (o.wav.empty()) return;
    const uint64_t before = !o.input.empty() ? emu::parse_input(o.input).size()
                            : movie          ? movie->frames.size() + 1
                            : o.demo         ? kMaxDemoWait
                                             : emu::parse_input(walk_input(o)).size();
    const uint64_t total = before + o.frames + (o.power_on == "fceux" ? 1 : 0);
    if (total > emu::kMaxWavFrames)
        throw UsageError("--wav: at most " + std::to_string(emu::kMaxWavFrames) + " frames from power-on (an hour), not " +
                         std::to_string(total) + " (" + std::to_string(before) + " before the run, " +
                         std::to_string(o.frames) + " of --frames)");
}

// --png-every's screenshots: OUT-000010.png for frames 10, 20, ... of the run.
OutputSeries screenshot_series(const PlayOptions& o) {
    const size_t dot = o.png.rfind('.');
    const std::string stem = dot == std::string::npos ? o.png : o.png.substr(0, dot);
    const std::string extension = dot == std::string::npos ? "" : o.png.substr(dot);
    const uint64_t every = o.png_every, frames = o.frames;
    return OutputSeries{stem + "-", extension, 6,
                        [every, frames, soak = o.soak](uint64_t f) {
                            // (a soak's menu presses step f past --frames: its screenshots may go further)
                            return every && f && f % every == 0 && (soak || f <= frames);
                        },
                        "the screenshot of frame"};
}

// What the run plays, said for people: "an AI A-Type game from level 19", "the demo", ...
std::string describe_run(const PlayOptions& o) {
    if (!o.input.empty()) return "input";
    if (!o.movie.empty()) return "the movie";
    if (o.demo) return "the demo";
    const std::string who = o.coach ? "coach " : o.human ? "human " : "AI ";
    return std::string(o.hate ? "a hate-mode " : o.coach || o.human ? "a " : "an ") + who + (o.b_type ? "B-Type" : "A-Type") +
           " game from level " + std::to_string(o.level) +
           (o.title_wait ? " (title wait " + std::to_string(o.title_wait) + ")" : "");
}

// The ROM the run plays: the file as it is when it is this build's patched game, else the file
// patched (which throws with the reason for anything that is not Tetris (USA)).
std::vector<uint8_t> rom_to_play(const std::vector<uint8_t>& file) {
    const RomIdentity id = identify_rom(file, this_build_context());
    if (id.kind == RomKind::Patched && id.signature && id.signature->this_build && id.signature->intact()) return file;
    return patch_rom(file, shipped_cart()).bytes;
}

// --write-movie's writer, named for FCEUX: it names the movie's ROM without its extension, and the
// file to open is the patched ROM (the one given if it is already, else the one `nestris-ai patch`
// writes from it).
void open_movie_out(std::optional<emu::Fm2Writer>& movie_out, const PlayOptions& o, const emu::Nes& nes, bool given_patched,
                    const std::string& what) {
    const std::filesystem::path given(o.rom);
    const std::string rom_name = given_patched ? given.stem().string() : given.stem().string() + "-nestris-ai";
    const bool walk = o.input.empty() && !o.demo;
    movie_out.emplace(o.write_movie, nes.cartridge(), rom_name,
                      "author nestris-ai play --power-on fceux: " + (o.input.empty() ? what : "your input") +
                          (walk && !o.title_wait ? " (title wait 0)" : "") + (o.soak ? ", game after game" : "") +
                          ", then " + std::to_string(o.frames) +
                          " frames; the pad's buttons only: the AI's moves are the cartridge's own");
}

// The run's frames, each through here (not screen_of_state's frame on the side), so that a written
// movie has each frame's buttons as the pad held them: the player's, never the AI's (the
// cartridge's poll reads the pad, then the AI writes its own buttons into the game's RAM).
struct FrameRunner {
    emu::Nes& nes;
    std::optional<emu::Fm2Writer>& movie_out;

    emu::RunStatus frame() {
        if (movie_out) movie_out->frame(emu::Fm2Frame{0, nes.buttons()});
        return nes.run_frame();
    }
    // Frames from an input string, then nothing held.
    void input(std::string_view text) {
        for (const uint8_t b : emu::parse_input(text)) {
            nes.set_buttons(b);
            if (frame() != emu::RunStatus::Reached) break;
        }
        nes.set_buttons(0);
    }
};

// FCEUX's power-on, when the run is to be replayed there (--power-on fceux, no movie of its own).
void power_on_as_fceux(const PlayOptions& o, emu::Nes& nes) {
    const emu::PowerOn power = power_on_mode(o.power_on);
    if (power != emu::PowerOn::Fceux || !o.movie.empty()) return;
    nes.power_on(power);
    // FCEUX's frames run from line 240 to line 240, from power-on (at line 240); ours end at
    // the vblank, a line later. This first line (FCEUX's first frame is dead: no vblank, no
    // NMI, no poll) puts the two in step: frame k here ends a line after FCEUX's frame k,
    // its buttons read by the same NMI, so a movie of these frames replays them in FCEUX.
    nes.run_frame();
}

// From power-on to the run's first frame: your input, your movie, the wait for the demo, or the
// menu walk to the game the options choose.
void reach_start(const PlayOptions& o, const std::optional<emu::Fm2Movie>& movie, FrameRunner& run) {
    emu::Nes& nes = run.nes;
    if (!o.input.empty()) {
        run.input(o.input);
    } else if (movie) {
        emu::fm2_power_on(nes, *movie, power_on_mode(o.power_on));
        for (size_t i = 0; i < movie->frames.size(); ++i) {
            if (emu::run_fm2_frame(nes, *movie, i) != emu::RunStatus::Reached) {
                throw std::runtime_error("the CPU halted in frame " + std::to_string(i + 1) + " of the movie");
            }
        }
        nes.set_buttons(0);
        // The movie's frames end at line 240, ours at the vblank a line later: that line (in the
        // frame after the movie, nothing pressed) is run now, so --frames 0 reports the movie's
        // last frame as a run that wrote the movie reports it.
        nes.run_frame();
    } else if (o.demo) {
        for (uint64_t f = 0; f < kMaxDemoWait && nes.read_ram(tetris::gameMode) != tetris::GAME_MODE_DEMO; ++f) run.frame();
    } else {
        run.input(walk_input(o));
    }
}

// --coach's person: the reference AI deciding without the preview, seeing the game as a person
// does; nothing held in a frame the model cannot read (the game's own screens).
uint8_t person_pad(ai::AiPlayer& person, const emu::Nes& nes) {
    try {
        return game::pad_from_game(
            person.buttons(view_of(from_ram(std::span<const uint8_t, kCpuRamSize>(nes.ram().data(), kCpuRamSize)))));
    } catch (const std::exception&) {
        return 0;
    }
}

// --png-every's screenshots so far.
struct Pictures {
    uint64_t count = 0;
    std::string first, last;
};

// The outputs finished and published together (the screenshots already made are in `published`),
// each said on its line.
void publish_outputs(const PlayOptions& o, emu::Nes& nes, std::optional<emu::Fm2Writer>& movie_out,
                     uint64_t movie_before_run, const Pictures& pictures, std::optional<emu::WavWriter>& wav, int rate,
                     RunWatch& watch, PublishedFiles& published) {
    if (movie_out) {
        const uint64_t written = movie_out->frames();
        movie_out->finish();
        published.add(o.write_movie);
        print("movie: %s, %llu frames from FCEUX's power-on, the state above its last: the run's frame N is its frame "
              "%llu+N; the pad's buttons only (no byte of the ROM), for FCEUX with the patched ROM (nestris-ai patch "
              "writes it)\n",
              o.write_movie.c_str(), static_cast<unsigned long long>(written),
              static_cast<unsigned long long>(movie_before_run));
    }
    if (pictures.count) {
        print("screenshots every %llu frames: %llu files, %s to %s (each the state of its frame)\n",
              static_cast<unsigned long long>(o.png_every), static_cast<unsigned long long>(pictures.count),
              pictures.first.c_str(), pictures.last.c_str());
    }
    if (!o.png.empty()) {
        watch.on_the_side = true;
        emu::write_png(o.png, emu::scaled(screen_of_state(nes), o.png_scale));
        published.add(o.png);
        print("screenshot: %s, the state above (the screen drawn the frame after: the game shows a frame's state in "
              "the next); made from your ROM: keep it to yourself\n",
              o.png.c_str());
    }
    if (wav) {
        wav->finish();
        print("sound: %s, %llu samples at %d Hz (%.2f s from power-on: the menus, then the run), 16-bit PCM mono; "
              "made from your ROM: keep it to yourself\n",
              o.wav.c_str(), static_cast<unsigned long long>(wav->samples()), rate,
              static_cast<double>(wav->samples()) / rate);
    }
    published.keep();
}

int play(const PlayOptions& o) {
    check_play_options(o);
    const std::vector<uint8_t> file = read_file(o.rom);
    note_input(o.movie);  // read below, but an input already: the screenshot may not overwrite it
    const OutputSeries screenshots = screenshot_series(o);
    const std::vector<std::filesystem::path> outputs = {o.png, o.wav, o.write_movie};
    check_outputs(outputs, screenshots);
    // Checked against the ROM given (a movie of the original game plays on the patch as is).
    std::optional<emu::Fm2Movie> movie;
    if (!o.movie.empty()) movie = load_movie(o.movie, *emu::parse_ines(file), "play");
    check_wav_frames(o, movie ? &*movie : nullptr);
    const CartImage& cart = shipped_cart();
    const std::vector<uint8_t> rom = rom_to_play(file);

    emu::Nes nes(rom);
    const int rate = o.sample_rate.value_or(48000);
    if (!o.wav.empty()) nes.enable_sound(rate);  // from power-on, menus included
    power_on_as_fceux(o, nes);
    // The sound goes to its file as it is made, 16-bit samples (96 KB a second at 48 kHz).
    std::optional<emu::WavWriter> wav;
    if (!o.wav.empty()) wav.emplace(o.wav, rate);
    std::vector<float> chunk;
    auto take_sound = [&] {
        if (!wav) return;
        chunk.clear();
        nes.take_samples(chunk);
        wav->add(chunk);
    };
    PublishedFiles published;  // the screenshots, then the outputs: all of them, or none
    namespace t = tetris;
    const std::string what = describe_run(o);
    std::optional<emu::Fm2Writer> movie_out;
    if (!o.write_movie.empty()) open_movie_out(movie_out, o, nes, rom == file, what);
    FrameRunner run{nes, movie_out};
    reach_start(o, movie, run);
    // --coach: the person plays well, and leaves the ghost where the preview matters.
    std::optional<ai::AiPlayer> person;
    if (o.coach) person.emplace(ai::default_tables(), o.b_type, /*blind_to_preview=*/true);
    const uint64_t movie_before_run = movie_out ? movie_out->frames() : 0;
    take_sound();
    nes.watch_main_loop(t::game_mainLoop);
    RunWatch watch;
    watch.idle_entry = cart.require("ai_idle");
    watch.nmi_entry = nes.nmi_vector();
    nes.set_instruction_hook([&watch](const emu::Nes& n) { watch.on_instruction(n); });
    PlayCounter counter(nes, game::ai_mode_address(), cart.require("late_plans"));
    uint64_t crash_frame = 0, frames_run = 0;
    Pictures pictures;
    std::optional<ProgressReport> progress;
    if (o.frames >= kProgressFrames) progress.emplace("nestris-ai play", o.frames, "frames", stderr_is_terminal(), false);
    const auto run_start = std::chrono::steady_clock::now();
    const auto run_seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count(); };
    for (uint64_t f = 1; f <= o.frames && !watch.crash_pc; ++f) {
        const bool in_play = counter.frame_is_play(nes);
        watch.measuring = in_play;
        if (person) nes.set_buttons(person_pad(*person, nes));
        run.frame();
        counter.count_play(nes, in_play);
        if (o.soak && nes.read_ram(t::player1_playState) == t::PLAY_STATE_CURTAIN && nes.read_ram(t::gameMode) == t::GAME_MODE_PLAY) {
            run.input(".*400 S .");  // the curtain down: Start, back to the menu
            f += 402;
        }
        if (o.soak && nes.read_ram(t::gameMode) == t::GAME_MODE_LEVEL_MENU) {  // the game is over: another
            const std::string held = o.level >= 10 ? "A+E" : "E";
            run.input(o.hate ? held + "*3 " + held + "+B*3 " + held + "+B+S ." : held + "*3 " + held + "+S .");
            f += o.hate ? 8 : 5;  // (the presses' frames)
        }
        counter.count_game(nes, f);
        if (!o.png.empty() && o.png_every && f % o.png_every == 0) {
            watch.on_the_side = true;
            pictures.last = screenshots.file(f).string();
            emu::write_png(pictures.last, emu::scaled(screen_of_state(nes), o.png_scale));
            published.add(pictures.last);
            watch.on_the_side = false;
            if (!pictures.count++) pictures.first = pictures.last;
        }
        if (watch.crash_pc) crash_frame = f;
        take_sound();
        // (a soak's menu presses count as frames of the run, and may step past its end)
        if (progress) std::cerr << progress->update(std::min(f, o.frames), run_seconds()) << std::flush;
        frames_run = f;
        if (o.to_the_end && nes.read_ram(t::player1_playState) == t::PLAY_STATE_CURTAIN &&
            nes.read_ram(t::gameMode) == t::GAME_MODE_PLAY)
            break;
    }
    if (progress) std::cerr << progress->finish(run_seconds()) << std::flush;
    print_summary(SummaryOptions{o.to_the_end ? frames_run : o.frames, o.coach, o.soak}, what, nes, counter, watch, crash_frame,
                  movie_out ? std::optional<uint64_t>(movie_before_run) : std::nullopt);
    publish_outputs(o, nes, movie_out, movie_before_run, pictures, wav, rate, watch, published);
    return o.soak && (counter.play_lag || watch.crash_pc) ? kExitFailed : kExitDone;
}

}  // namespace

emu::Image screen_of_state(emu::Nes& nes) {
    if (nes.sound_enabled()) {  // the side frame must not be heard: a copy of the machine is silent
        emu::Nes side = nes;
        side.run_frame();
        return side.screenshot();
    }
    const emu::NesState now = nes.snapshot();
    nes.run_frame();
    emu::Image picture = nes.screenshot();
    nes.restore(now);
    return picture;
}

void add_play_command(CLI::App& app) {
    auto o = std::make_shared<PlayOptions>();
    CLI::App* sub = app.add_subcommand("play", "Watch the patched game headless: the AI plays a game (or the demo)");
    sub->add_option("ROM", o->rom, "your Tetris (USA) ROM (patched in memory), or a ROM this build patched")
        ->required();
    CLI::Option* level = sub->add_option("--level", o->level, "start level 0-19 (default 19; 10-19 use the A trick)");
    sub->add_flag("--b-type", o->b_type, "a B-Type game");
    CLI::Option* height = sub->add_option("--height", o->height, "B-Type start height 0-5");
    CLI::Option* title_wait = sub->add_option(
        "--title-wait", o->title_wait,
        "extra frames on the legal screen before the menu walk (0-225, default 0): another game, the one\n"
        "check-identity and measure-lock number by their title wait");
    sub->add_flag("--demo", o->demo, "watch the demo instead (wait at the title until it starts)");
    sub->add_flag("--human", o->human, "start the game without Select: nobody plays it (a check of human mode)");
    sub->add_flag("--coach", o->coach,
                  "a coach game (B held at Start, pressed up to 4 frames after A): the cartridge shows its placement as a\n"
                  "pink ghost and the grade while the reference AI, deciding without the preview, plays as the person");
    sub->add_flag("--hate", o->hate,
                  "a hate-mode AI game (Select, then B, held at Start): the cartridge deals each next piece, the type\n"
                  "whose best placement on the board is worst by the AI's own cost; the lines made are in the summary.\n"
                  "With --coach, a person's game against it (the coach's chord, then Select too), the person as --coach's");
    sub->add_option("--frames", o->frames,
                    "frames to run once the game or demo has started (default 3600 = 1 min; at most " +
                        thousands(kMaxPlayFrames) + ", 19 days of the game)")
        ->check(CLI::Range(uint64_t{0}, kMaxPlayFrames));
    sub->add_option("--input", o->input,
                    "your own input from power-on instead of the menu walk (emu-test input string: '.*300 S ...')");
    add_movie_options(*sub, o->movie, o->power_on);
    sub->add_option("--write-movie", o->write_movie,
                    "write the run as an FCEUX movie (.fm2) from power-on: each frame's buttons as the pad held\n"
                    "them (the menu walk's presses; the AI's moves are the cartridge's own, not in it), with the\n"
                    "patched ROM's checksum; needs --power-on fceux; written whole at the end, or not at all;\n"
                    "at most " + std::to_string(kMaxMovieRunFrames) + " frames");
    sub->add_option("--png", o->png, "screenshot at the end (PNG): the state printed");
    sub->add_option("--png-every", o->png_every,
                    "with --png, also a screenshot every N frames (OUT-000123.png: frame 123; none of them may be\n"
                    "another output's file)");
    sub->add_option("--png-scale", o->png_scale, "with --png, each of the NES's 256x240 pixels as an NxN square (1-8, default 1)")
        ->check(CLI::Range(1, 8));
    sub->add_option("--wav", o->wav,
                    "write the sound from power-on (menus, then the run) as a 16-bit PCM mono WAV (the APU's\n"
                    "five channels, the console's mixer and filters; written as it is made, 96 KB a second at\n"
                    "48 kHz): at most " + std::to_string(emu::kMaxWavFrames) + " frames from power-on, an hour (your input's or\n"
                    "movie's, the menu walk's and --frames); not with --soak");
    sub->add_option("--sample-rate", o->sample_rate, "sample rate of --wav in Hz (default 48000)")
        ->check(CLI::Range(8000, 192000));
    sub->add_flag("--to-the-end", o->to_the_end,
                  "stop at the game's end, when its curtain falls (a top-out), instead of running out --frames; the\n"
                  "summary says the frames run");
    sub->add_flag("--soak", o->soak,
                  "a long run: whenever an AI game ends (back on the level menu), start another; exit\n"
                  "status 1 when a frame of AI play lagged or the game crashed");
    sub->footer("The menu walk: Start through the legal (after --title-wait frames more) and title screens,\n"
                "Right for B-Type, the level (and\n"
                "height) with the pad, then Select held (and A for levels 10-19) and Start: the AI plays.\n"
                "Prints the game's state at the end (screen, AI mode, level, lines, score, pieces, top-outs),\n"
                "the RNG's seed as the run starts (games from different seeds are dealt different pieces)\n"
                "and the frames in which the game's main loop did not run: in all, and during AI play.\n"
                "A crash of the game (the CPU running RAM) ends the run, and is reported.\n"
                "--power-on fceux: FCEUX 2.6's power-on, for every run (another game than the hardware's\n"
                "for the same options); its frames are FCEUX's, from power-on. With --write-movie, FCEUX\n"
                "replays the run from the movie on the patched ROM (nestris-ai patch writes it): the\n"
                "run's frame N is the movie's frame W+N, W printed. A rebirth (level 255 to 0) is printed\n"
                "with its frame.\n"
                "--demo, --input and --movie choose the game themselves: --level, --b-type, --height,\n"
                "--title-wait (and, for --input and --movie, --human) are refused with them.\n"
                "A screenshot shows the state of its frame (the one printed, for --png): the game draws a\n"
                "frame's state during the next frame, so that next frame is run on the side for the picture.\n"
                "Exit status 0; 1 with a message (not Tetris (USA), a lag frame or a crash in a soak); 2 a bad option.");
    sub->callback([o, level, height, title_wait] {
        o->level_given = level->count() > 0;
        o->height_given = height->count() > 0;
        o->title_wait_given = title_wait->count() > 0;
        run_command("nestris-ai play", [o] { return play(*o); });
    });
}

}  // namespace nestris

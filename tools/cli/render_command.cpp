// nestris-ai render: pictures of model states (text for terminals, PNG).
#include "ai-reference/ai/ai_player.hpp"
#include "ai-reference/model/player.hpp"
#include "ai-reference/model/power_on.hpp"
#include "ai-reference/model/render.hpp"
#include "ai-reference/model/state_io.hpp"
#include "base/command_runner.hpp"
#include "base/file_io.hpp"
#include "tools/cli/command_line.hpp"
#include "tools/cli/model_commands.hpp"

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <unistd.h>

namespace nestris {
namespace {

// The most frames --frame plays: 46 hours of game, some two minutes of the model's time.
constexpr uint64_t kMaxRenderFrames = 10'000'000;

struct RenderOptions {
    std::string state;
    std::optional<uint32_t> seed;
    int level = 19;  // as play and simulate: the level the AI is made for
    std::string type = "A";
    int height = 0;
    std::string movie;
    std::string player;
    std::optional<uint64_t> frame;  // none: the whole movie
    bool text = false;
    bool color = false;
    bool hidden_rows = false;
    std::string png;
    int scale = 2;
    std::string frames_dir;
    uint32_t every = 1;
    std::string save_state;
};

int run(const RenderOptions& o) {
    if (o.state.empty() == !o.seed)
        throw UsageError("give one start: --state FILE or --seed N");
    GameState s = o.state.empty()
        ? seeded_game(*o.seed, static_cast<uint8_t>(o.level), o.type == "B" ? 1 : 0,
                      static_cast<uint8_t>(o.height))
        : load_state_file(o.state);
    std::unique_ptr<Player> player;
    uint64_t frames = o.frame.value_or(0);
    if (!o.movie.empty()) {
        Movie movie = load_movie_file(o.movie);
        if (!o.frame) frames = movie.frames.size();
        player = std::make_unique<MoviePlayer>(std::move(movie));
    } else if (o.player == "drop") {
        player = std::make_unique<DropAtSpawnPlayer>();
    } else if (o.player == "ai") {
        player = std::make_unique<ai::AiPlayer>(ai::default_tables(), s.gameType != 0);
    } else if (!o.player.empty()) {
        throw UsageError("unknown player '" + o.player + "' (ai, drop)");
    }
    if (frames && !player) throw UsageError("--frame needs --movie or --player");
    check_outputs({o.png, o.save_state});  // before the frames are played; never onto --state or --movie
    if (!o.frames_dir.empty()) std::filesystem::create_directories(o.frames_dir);
    auto dump_frame = [&](uint64_t f) {
        if (o.frames_dir.empty() || f % std::max<uint32_t>(1, o.every) != 0) return;
        char name[32];
        std::snprintf(name, sizeof name, "frame_%06llu.png", static_cast<unsigned long long>(f));
        write_png((std::filesystem::path(o.frames_dir) / name).string(), render_image(s, o.scale));
    };
    dump_frame(0);
    uint64_t played = 0;
    for (uint64_t f = 1; f <= frames && s.status == GameStatus::Playing; ++f) {
        step(s, player->buttons(view_of(s)));
        dump_frame(f);
        played = f;
    }
    // What was written, said: a command that writes files and prints nothing looks as if it failed.
    const std::string after = "after " + std::to_string(played) + (played == 1 ? " frame" : " frames");
    if (!o.frames_dir.empty()) {
        const uint64_t every = std::max<uint32_t>(1, o.every);
        std::cout << "wrote " << played / every + 1 << " PNG frame(s) to " << o.frames_dir << " (frame_000000.png to frame_"
                  << std::setw(6) << std::setfill('0') << played / every * every << std::setfill(' ') << ".png)\n";
    }
    if (!o.png.empty()) {
        write_png(o.png, render_image(s, o.scale));
        std::cout << "wrote " << o.png << ": the state " << after << "\n";
    }
    if (!o.save_state.empty()) {
        save_state_file(o.save_state, s);
        std::cout << "wrote " << o.save_state << ": the state " << after << "\n";
    }
    if (o.text || (o.png.empty() && o.frames_dir.empty() && o.save_state.empty())) {
        TextOptions t;
        t.color = o.color && isatty(fileno(stdout));
        t.hidden_rows = o.hidden_rows;
        std::cout << render_text(s, t);
    }
    return 0;
}

}  // namespace

void add_render_command(CLI::App& app) {
    auto o = std::make_shared<RenderOptions>();
    CLI::App* cmd = app.add_subcommand(
        "render",
        "Show a game model state: as text on the terminal (default) or as PNG pictures. The state\n"
        "comes from a state file or a seeded game start, optionally played on by a movie or a\n"
        "player (--player ai or drop) for --frame frames; --frames-dir writes a PNG of every (--every K-th) frame.\n"
        "Says what it wrote. The PNG's side panel gives the lines, score and level, and the next piece.");
    cmd->add_option("--state", o->state, "state file (nestris-state text)");
    cmd->add_option("--seed", o->seed, "start: the seeded game (frames in the level menu)");
    cmd->add_option("--level", o->level, "start level of the seeded game (0-255; as play and simulate, 19 by default)")
        ->check(CLI::Range(0, 255));
    cmd->add_option("--type", o->type, "A or B")->check(CLI::IsMember({"A", "B"}));
    cmd->add_option("--height", o->height, "B-Type height 0-5")->check(CLI::Range(0, 5));
    cmd->add_option("--movie", o->movie, "play this movie from the start");
    cmd->add_option("--player", o->player, "play with this player: ai (the reference AI) or drop");
    cmd->add_option("--frame", o->frame,
                    "frames to play (default: the whole movie; at most " + thousands(kMaxRenderFrames) + ")")
        ->check(CLI::Range(uint64_t{0}, kMaxRenderFrames));
    cmd->add_flag("--text", o->text, "print the text board (also with --png)");
    cmd->add_flag("--color", o->color, "ANSI colours on a terminal");
    cmd->add_flag("--hidden-rows", o->hidden_rows, "show the two hidden rows above the playfield");
    cmd->add_option("--png", o->png, "write the final state as a PNG");
    cmd->add_option("--scale", o->scale, "PNG pixels per NES pixel")->check(CLI::Range(1, 16))->capture_default_str();
    cmd->add_option("--frames-dir", o->frames_dir, "write frame_NNNNNN.png for the frames played");
    cmd->add_option("--every", o->every, "with --frames-dir: every K-th frame")->capture_default_str();
    cmd->add_option("--save-state", o->save_state, "write the final state to a state file");
    cmd->callback([o] {
        run_command("nestris-ai render", [o] { return run(*o); });
    });
}

}  // namespace nestris

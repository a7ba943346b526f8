#include "tools/cli/play_summary.hpp"

#include "ai-reference/model/game_model.hpp"
#include "ai-reference/model/ram_map.hpp"
#include "game/hooks_map.hpp"
#include "patcher/cart_image.hpp"
#include "tools/harness/coach_run.hpp"
#include "tools/harness/game_harness.hpp"

namespace nestris {

namespace {

const char* ai_mode_name(uint8_t mode) {
    switch (mode) {
    case hooks::AI_MODE_HUMAN: return "the AI off";
    case hooks::AI_MODE_DEMO: return "the AI in the demo";
    case hooks::AI_MODE_GAME: return "the AI playing";
    case hooks::AI_MODE_COACH: return "the coach on";
    case hooks::AI_MODE_POLL_PAUSED:
    case hooks::AI_MODE_POLL_LAG: return "the AI playing (a scoring frame left to the game)";
    default: return "the AI in an unknown mode";
    }
}

}  // namespace

void print_summary(const SummaryOptions& o, const std::string& what, const emu::Nes& nes, const PlayCounter& c,
                   const RunWatch& watch, uint64_t crash_frame, std::optional<uint64_t> movie_before_run) {
    namespace t = tetris;
    const uint32_t line_count = lines_made(nes.read_ram(t::lines), nes.read_ram(t::lines + 1));
    const uint32_t score_value = bcd_to_int(nes.ram().data() + t::score, 3);
    static const char* const kModeNames[] = {"the legal screen", "the title", "the game type menu", "the level menu",
                                             "a game", "the demo", "the title (to the demo)"};
    const uint8_t mode_now = nes.read_ram(t::gameMode), ai_now = nes.read_ram(game::ai_mode_address());
    const bool b_type_now = nes.read_ram(t::gameType) != 0;
    print("played %s for %llu frames (%.1f s); at the end: %s, %s, level %u, %u %s, score %u, %llu %s, "
                "%llu %s\n",
                what.c_str(), static_cast<unsigned long long>(o.frames), static_cast<double>(o.frames) / 60.0988,
                mode_now < 7 ? kModeNames[mode_now] : "an unknown screen", ai_mode_name(ai_now),
                nes.read_ram(t::player1_levelNumber), line_count, b_type_now ? "lines left" : "lines", score_value,
                static_cast<unsigned long long>(c.pieces), c.pieces == 1 ? "piece" : "pieces",
                static_cast<unsigned long long>(c.top_outs), c.top_outs == 1 ? "top-out" : "top-outs");
    print("the RNG's seed at the run's start: $%04X (the pieces follow from it and the frames they spawn in)\n",
          static_cast<unsigned>(c.start_rng));
    print("frames in which the game's main loop did not run: %llu in all, the game's own (screens drawn, "
                "line clears, top-out curtains: the original does the same); during AI play, below\n",
                static_cast<unsigned long long>(nes.lag_frames()));
    print("%s: %llu frames%s, %llu lag frames in them (frames whose main loop never ran), at most %llu in a "
                "row; worst frame "
                "margin %lld cycles (the least time left from the game's frame work done to the next NMI, of "
                "29780); %llu pieces given the best placement of a search not done at their spawn\n",
                o.coach ? "Coach play" : "AI play", static_cast<unsigned long long>(c.play_frames),
                o.soak ? (", " + std::to_string(c.games) + " games").c_str() : "",
                static_cast<unsigned long long>(c.play_lag), static_cast<unsigned long long>(c.most_lag_in_a_row),
                static_cast<long long>(watch.margin_frames ? watch.worst_margin : 0),
                static_cast<unsigned long long>(c.fallbacks));
    if (o.coach)
        print("the coach's grade, as the cartridge keeps and shows it: %s\n",
              game::describe_grade(game::read_cart_grade(nes, shipped_cart())).c_str());
    if (watch.crash_pc) {
        char where[8];
        std::snprintf(where, sizeof where, "$%04X", *watch.crash_pc);
        print("CRASH in frame %llu: the CPU runs RAM at %s (a jump gone astray); the run stops there, the "
              "state above is the crashed game's\n",
              static_cast<unsigned long long>(crash_frame), where);
    }
    if (c.rebirths) {
        print("the rebirth (level 255 to 0): %llu %s, the first in frame %llu%s\n", static_cast<unsigned long long>(c.rebirths),
              c.rebirths == 1 ? "time" : "times", static_cast<unsigned long long>(c.first_rebirth),
              movie_before_run ? (" (the movie's frame " + std::to_string(*movie_before_run + c.first_rebirth) + ")").c_str()
                               : "");
    }
}

}  // namespace nestris

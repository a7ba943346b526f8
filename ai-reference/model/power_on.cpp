#include "ai-reference/model/power_on.hpp"

#include "ai-reference/model/rng.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace nestris {
namespace {

// What the menus leave behind that the game reads: the RNG, the frame counter and the NMI count.
struct MenuClock {
    uint16_t rng = kPowerOnRngSeed;
    uint16_t frameCounter = 0;  // RAM init zeroes it
    uint32_t nmis = 0;

    void nmi() {
        ++frameCounter;
        rng = rng_step(rng);
        ++nmis;
    }
    void advance_to(uint32_t nmi_count) {
        while (nmis < nmi_count) nmi();
    }
};

// The level menu's garbage-hole draw: step until the low nibble of the high byte is below 10.
uint8_t draw_garbage_hole(uint16_t& rng) {
    for (;;) {
        rng = rng_step(rng);
        const uint8_t v = rng_high_byte(rng) & 0x0F;
        if (v < 10) return v;
    }
}

// The level menu's effect on the RNG depends only on the RNG: each frame draws two holes and
// the NMI steps once. So the RNG after n menu frames follows a fixed path that runs into a cycle
// of at most 32 767 states. The path is worked out once per menu entry state and shared; then a
// seed of any size costs the same.
struct LevelMenuPath {
    std::vector<uint16_t> rng;  // rng[n]: RNG at the n-th Start check (after n menu frames)
    std::size_t cycle_start = 0;

    std::size_t index(uint64_t n) const {
        if (n < rng.size()) return static_cast<std::size_t>(n);
        const std::size_t cycle = rng.size() - cycle_start;
        return cycle_start + static_cast<std::size_t>((n - cycle_start) % cycle);
    }
};

std::shared_ptr<const LevelMenuPath> level_menu_path(uint16_t entry_rng) {
    static std::mutex mutex;
    static std::map<uint16_t, std::shared_ptr<const LevelMenuPath>> cache;
    const std::lock_guard lock(mutex);
    auto& slot = cache[entry_rng];
    if (slot) return slot;
    auto path = std::make_shared<LevelMenuPath>();
    std::vector<int32_t> seen(65536, -1);
    uint16_t rng = entry_rng;
    while (seen[rng] < 0) {
        seen[rng] = static_cast<int32_t>(path->rng.size());
        path->rng.push_back(rng);
        draw_garbage_hole(rng);  // player 1's hole
        draw_garbage_hole(rng);  // player 2's hole
        rng = rng_step(rng);     // the NMI
    }
    path->cycle_start = static_cast<std::size_t>(seen[rng]);
    slot = path;
    return slot;
}

// Tiles the B-Type setup draws from (indexed by the RNG's high byte & 7).
constexpr std::array<uint8_t, 8> kGarbageTiles{kTileEmpty,  kTileBlockA, kTileEmpty, kTileBlockB,
                                               kTileBlockC, kTileBlockC, kTileEmpty, kTileEmpty};
// Last playfield index the B-Type setup clears, by start height (rows above the garbage; the
// game clears that index inclusive, so the top garbage row always has column 0 empty).
constexpr std::array<uint8_t, 6> kBTypeClearThrough{200, 170, 150, 120, 100, 80};

void build_b_type_garbage(GameState& s, uint8_t start_height) {
    for (int row = 8; row < kPlayfieldHeight; ++row) {
        s.vramRow = 0;
        for (int column = 9; column >= 0; --column) {
            s.rngSeed = rng_step(s.rngSeed);
            s.playfield[static_cast<std::size_t>(row * 10 + column)] =
                kGarbageTiles[rng_high_byte(s.rngSeed) & 7];
        }
        const uint8_t hole = draw_garbage_hole(s.rngSeed);
        s.playfield[static_cast<std::size_t>(row * 10 + hole)] = kTileEmpty;
        run_nmi(s, 0);
    }
    for (int i = 0; i <= kBTypeClearThrough[start_height]; ++i)
        s.playfield[static_cast<std::size_t>(i)] = kTileEmpty;
}

}  // namespace

GameState start_game(const GameSetup& setup) {
    if (setup.game_type > 1) throw std::invalid_argument("game type must be 0 (A) or 1 (B)");
    if (setup.start_height > 5) throw std::invalid_argument("B-Type start height must be 0-5");
    GameState s;
    s.rngSeed = setup.rngSeed;
    s.frameCounter = setup.frameCounter;
    s.spawnCount = setup.spawnCount;
    s.garbageHole = setup.garbageHole;
    s.startLevel = setup.start_level;
    s.startHeight = setup.start_height;
    s.gameType = setup.game_type;
    s.heldButtons = tetris::BUTTON_START;  // the press that started the game

    // Screen setup: 4 NMIs in a menu render mode (nothing of the game is drawn yet).
    s.renderMode = 1;
    for (int i = 0; i < 4; ++i) run_nmi(s, 0);
    s.playState = tetris::PLAY_STATE_ACTIVE;
    s.levelNumber = setup.start_level;

    // Game state setup.
    s.playfield.fill(kTileEmpty);
    s.statsByType.fill(0);
    s.tetriminoX = kSpawnX;
    s.tetriminoY = kSpawnY;
    s.vramRow = 0;
    s.fallTimer = 0;
    s.score.fill(0);
    s.lines.fill(0);
    s.lineClearStatsByType.fill(0);
    s.spawnID = 0;
    s.renderMode = tetris::RENDER_MODE_PLAY;
    s.autorepeatY = 0xA0;  // the first piece hangs for 96 frames unless Down is pressed
    s.currentPiece = pick_next_piece(s.rngSeed, s.spawnID, s.spawnCount);
    const uint8_t type = kTypeOfOrientation[s.currentPiece];
    s.statsByType[2u * type] = 0x01;
    s.rngSeed = rng_step(s.rngSeed);
    s.nextPiece = pick_next_piece(s.rngSeed, s.spawnID, s.spawnCount);
    if (s.gameType != 0) s.lines[0] = 0x25;
    run_nmi(s, 0);
    if (s.gameType != 0) build_b_type_garbage(s, setup.start_height);

    // The first frame runs straight on, without waiting for an NMI.
    s.gameModeState = 2;
    run_main_loop(s);
    return s;
}

GameState power_on_game(const PowerOnSequence& p) {
    if (p.legal_frames > 255)
        throw std::invalid_argument("legal_frames must be 0-255 (255: the legal screen times out)");
    if (p.game_type > 1) throw std::invalid_argument("game_type must be 0 (A-Type) or 1 (B-Type)");
    if (p.game_type == 1 && p.game_type_frames == 0)
        throw std::invalid_argument("B-Type needs a game type menu frame for the Right press");
    if (p.start_height > 5) throw std::invalid_argument("start_height must be 0-5");

    MenuClock clock;
    clock.advance_to(kNmisToTitleFrameCounterReset + p.legal_frames);
    clock.frameCounter &= 0x00FF;  // the title screen clears the high byte
    // The title screen checks Start after each NMI, then starts the demo once the high byte of
    // frameCounter reaches 5.
    for (uint32_t check = 0;; ++check) {
        clock.nmi();
        if (check == p.title_frames) break;
        if ((clock.frameCounter >> 8) == 5)
            throw std::invalid_argument("title_frames " + std::to_string(p.title_frames) +
                                        ": the title screen starts the demo first");
    }
    clock.advance_to(kNmisToLevelMenuFirstCheck + p.legal_frames + p.title_frames +
                     p.game_type_frames);

    // RAM init zeroes the hole; each menu frame draws a new one.
    const auto path = level_menu_path(clock.rng);
    uint8_t hole = 0;
    if (p.level_menu_frames > 0) {
        uint16_t last_frame = path->rng[path->index(p.level_menu_frames - 1u)];
        hole = draw_garbage_hole(last_frame);
    }
    clock.rng = path->rng[path->index(p.level_menu_frames)];
    clock.frameCounter = static_cast<uint16_t>(clock.frameCounter + p.level_menu_frames);

    GameSetup setup;
    setup.rngSeed = clock.rng;
    setup.frameCounter = clock.frameCounter;
    setup.spawnCount = 0;  // first game after power-on
    setup.garbageHole = hole;
    setup.game_type = p.game_type;
    setup.start_level = p.start_level;
    setup.start_height = p.start_height;
    return start_game(setup);
}

GameState seeded_game(uint32_t seed, uint8_t start_level, uint8_t game_type,
                      uint8_t start_height) {
    PowerOnSequence p;
    p.level_menu_frames = seed;
    p.game_type = game_type;
    p.game_type_frames = game_type != 0 ? 1 : 0;
    p.start_level = start_level;
    p.start_height = start_height;
    return power_on_game(p);
}

}  // namespace nestris

#include "tools/harness/cart_loop.hpp"

#include "ai-reference/model/ram_map.hpp"
#include "patcher/cart_image.hpp"
#include "tools/harness/cart_ai.hpp"

#include <algorithm>
#include <stdexcept>

namespace nestris::tools {

namespace {

// Where the loop's stand-in for the game's NMI handler lives in the flat machine: $5F00 is
// unmapped on the cartridge (the AI's RAM and code are in PRG-RAM from $6000), below the
// flat machine's call sentinel ($5FF0).
constexpr uint16_t kNmiStub = 0x5F00;

}  // namespace

void CartLoopStats::merge(const CartLoopStats& other) {
    frames += other.frames;
    task_cycles += other.task_cycles;
    max_overrun = std::max(max_overrun, other.max_overrun);
    late_pieces += other.late_pieces;
    fallback_plans += other.fallback_plans;
    finished_plans += other.finished_plans;
    redone_searches += other.redone_searches;
    hate_dealt += other.hate_dealt;
    hate_kept += other.hate_kept;
    max_stack = std::max(max_stack, other.max_stack);
    first_input.merge(other.first_input);
    first_piece_input_max = std::max(first_piece_input_max, other.first_piece_input_max);
    if (other.max_step > max_step) {
        max_step = other.max_step;
        max_step_from = other.max_step_from;
        max_step_to = other.max_step_to;
    }
}

CartridgeInTheLoop::CartridgeInTheLoop(const GameState& start, CartLoopOptions options)
    : state_(start), options_(options) {
    const CartImage& cart = shipped_cart();
    load_cart(machine_, cart);
    load_game_tables(machine_);
    // ai_idle ends the wait as the game does, resetting the sprite staging through the game's
    // memset_page: here an rts, and ai_idle's own rts returns to the sentinel idle() pushed.
    machine_.write(tetris::game_memset_page, 0x60);
    ai_poll_ = cart.require("ai_poll");
    ai_idle_ = cart.require("ai_idle");
    ai_yield_ = cart.require("ai_yield");
    ai_yield_inline_ = cart.require("ai_yield_inline");
    vblank_ = tetris::verticalBlankingInterval;
    held_ = tetris::heldButtons_player1;
    drv_active_ = cart.require("drv_active");
    task_late_ = cart.require("task_late");
    co_len_ = cart.require("co_len");
    late_plans_ = cart.require("late_plans");
    late_exact_ = cart.require("late_exact");
    plan_ok_ = cart.require("plan_ok");
    plan_lost_ = static_cast<uint8_t>(cart.require("PLAN_LOST"));  // plan_ok's value: no placement
    // The game's controller read: nobody at the controller (newly pressed and held: nothing).
    const uint16_t poll = tetris::game_pollController;
    const uint16_t newly = tetris::newlyPressedButtons_player1;
    const uint8_t read_stub[] = {0xA9, 0x00, 0x85, static_cast<uint8_t>(newly), 0x85, static_cast<uint8_t>(held_), 0x60};
    machine_.load(poll, read_stub);
    // The NMI as the game's handler does what the AI depends on: registers saved, the frame
    // counter stepped, the vertical blank flagged, the controller polled (the AI's driver).
    const uint16_t counter = tetris::frameCounter;
    const uint8_t nmi_stub[] = {
        0x48, 0x8A, 0x48, 0x98, 0x48,                                      // pha txa pha tya pha
        0xE6, static_cast<uint8_t>(counter), 0xD0, 0x02,                   // inc frameCounter, bne +2
        0xE6, static_cast<uint8_t>(counter + 1),                           // inc frameCounter+1
        0xA9, 0x01, 0x85, static_cast<uint8_t>(vblank_),                   // lda #1, sta vblank flag
        0x20, static_cast<uint8_t>(ai_poll_), static_cast<uint8_t>(ai_poll_ >> 8),  // jsr ai_poll
        0x68, 0xA8, 0x68, 0xAA, 0x68, 0x40};                               // pla tay pla tax pla rti
    machine_.load(kNmiStub, nmi_stub);
    machine_.write16(0xFFFA, kNmiStub);
    machine_.write(cart.require("ai_mode"), options_.ai_mode);
    hate_for_ = cart.require("hate_for");
    hate_type_ = cart.require("hate_type");
    machine_.write(cart.require("hate_on"), options_.hate ? 1 : 0);
    // level_start's: spawnCount at the Start press, before the game's two draws
    if (options_.hate) machine_.write(hate_for_, static_cast<uint8_t>(start.spawnCount - 2));
    mirror();
    // The first NMI: the driver's buttons for the first frame.
    machine_.cpu().set_s(0xFD);
    if (!machine_.call_nmi(kNmiStub, 100'000).ok()) throw std::runtime_error("the NMI did not return");
    buttons_ = machine_.read(held_);
}

void CartridgeInTheLoop::mirror() {
    to_ram(state_, std::span<uint8_t, kCpuRamSize>(machine_.memory().data(), kCpuRamSize));
}

uint8_t CartridgeInTheLoop::frame(LagNmis lag) {
    // The main loop with the buttons the last NMI's poll left.
    const uint8_t buttons = buttons_;
    const uint8_t active = machine_.read(drv_active_);
    // (A piece with no reachable placement, the last of a lost game, is not late.)
    if (active == 2 && last_drv_active_ != 2 && machine_.read(plan_ok_) != plan_lost_) ++stats_.late_pieces;
    last_drv_active_ = active;
    const uint8_t spawns_before = state_.spawnCount;
    step_with_lag(state_, buttons, lag, [this](const GameState&) {
        // An NMI in the game's work, not the task's: it polls (the driver) and the work goes
        // on; the task, where it gave the CPU back, gets no time.
        mirror();
        machine_.cpu().set_s(0xFD);
        if (!machine_.call_nmi(kNmiStub, 100'000).ok()) throw std::runtime_error("the lag frame's NMI did not return");
        return machine_.read(held_);
    });
    if (options_.hate && state_.spawnCount != spawns_before) deal_hate();
    mirror();
    ++stats_.frames;
    count_first_input(buttons, state_.spawnCount != spawns_before);

    // Its wait for the vertical blank: the AI's task runs until the next NMI interrupts it; the
    // NMI polls (the driver) and flags the blank, and the task gives the CPU back at its next
    // step's end.
    machine_.write(vblank_, 0);
    machine_.cpu().set_s(0xFD);
    if (options_.around_idle) options_.around_idle(machine_, false);
    idle();
    if (options_.around_idle) options_.around_idle(machine_, true);
    buttons_ = machine_.read(held_);
    stats_.redone_searches = machine_.read(task_late_);
    const uint8_t late_plans = machine_.read(late_plans_);
    stats_.fallback_plans += static_cast<uint8_t>(late_plans - last_late_plans_);
    last_late_plans_ = late_plans;
    const uint8_t late_exact = machine_.read(late_exact_);
    stats_.finished_plans += static_cast<uint8_t>(late_exact - last_late_exact_);
    last_late_exact_ = late_exact;
    return buttons;
}

// The dealer (hate.s, hate_deal) in the spawn's frame: the cartridge's choice when the task made
// it for this spawn, else the game's draw.
void CartridgeInTheLoop::deal_hate() {
    if (machine_.read(hate_for_) == state_.spawnCount) {
        override_next_piece(state_, machine_.read(hate_type_));
        machine_.write(hate_for_, static_cast<uint8_t>(state_.spawnCount - 1));
        ++stats_.hate_dealt;
    } else {
        ++stats_.hate_kept;
    }
}

void CartridgeInTheLoop::count_first_input(uint8_t buttons, bool spawned) {
    if (since_spawn_ >= 0) {
        ++since_spawn_;
        if (buttons) {
            const auto frames = static_cast<uint32_t>(since_spawn_);
            if (first_piece_) {
                stats_.first_piece_input_max = std::max(stats_.first_piece_input_max, frames);
            } else {
                stats_.first_input.add(frames);
            }
            since_spawn_ = -1;
            first_piece_ = false;
        }
    }
    // The game's first piece is there from the first frame (in its hold).
    if (spawned || (stats_.frames == 1 && first_piece_)) {
        if (stats_.frames > 1) first_piece_ = false;
        since_spawn_ = 0;
    }
}

void CartridgeInTheLoop::idle() {
    auto& cpu = machine_.cpu();
    const uint8_t s_level = cpu.s();
    const uint16_t ret = static_cast<uint16_t>(machine_.sentinel() - 1);
    machine_.write(static_cast<uint16_t>(0x100 | s_level), static_cast<uint8_t>(ret >> 8));
    machine_.write(static_cast<uint16_t>(0x100 | uint8_t(s_level - 1)), static_cast<uint8_t>(ret));
    cpu.set_s(static_cast<uint8_t>(s_level - 2));
    cpu.set_pc(ai_idle_);
    const uint64_t start = machine_.cycles();
    auto returned = [&] { return cpu.pc() == machine_.sentinel() && cpu.s() == s_level; };
    uint64_t budget = options_.idle_source ? options_.idle_source() : options_.idle_cycles;
    if (options_.idle_jitter) {
        jitter_state_ = jitter_state_ * 1103515245u + 12345u;
        budget = budget - options_.idle_jitter + (jitter_state_ >> 8) % (2 * uint64_t{options_.idle_jitter} + 1);
    }
    if (options_.measure_steps) {
        uint64_t event = start;
        uint16_t event_from = last_yield_;  // the task goes on from where it gave the CPU back
        bool nmi = false;
        while (!returned()) {
            if (cpu.pc() == ai_yield_ || cpu.pc() == ai_yield_inline_) {
                // A yield: a call of ai_yield (named by its caller) or the sweep's own poll.
                const uint16_t caller =
                    cpu.pc() == ai_yield_inline_
                        ? cpu.pc()
                        : static_cast<uint16_t>(
                              (machine_.read(static_cast<uint16_t>(0x100 | uint8_t(cpu.s() + 1))) |
                               machine_.read(static_cast<uint16_t>(0x100 | uint8_t(cpu.s() + 2))) << 8) -
                              2);
                if (machine_.cycles() - event > stats_.max_step) {
                    stats_.max_step = machine_.cycles() - event;
                    stats_.max_step_from = event_from;
                    stats_.max_step_to = caller;
                }
                event = machine_.cycles();
                event_from = caller;
                last_yield_ = caller;
            }
            if (!nmi && machine_.cycles() - start >= budget) {
                nmi_at_ = machine_.cycles();
                machine_.nmi();
                nmi = true;
                continue;
            }
            if (machine_.cycles() - start > 50'000'000) throw std::runtime_error("ai_idle did not return");
            if (options_.on_instruction) options_.on_instruction(machine_);
            machine_.step();
        }
        if (!nmi) throw std::runtime_error("ai_idle returned before the vertical blank");
    } else {
        if (machine_.run_until_pc(0xFFFF, budget) == emu::RunStatus::Jammed)
            throw std::runtime_error("the task jammed the CPU");
        nmi_at_ = machine_.cycles();
        machine_.nmi();
        if (machine_.run_until_pc(machine_.sentinel(), 10'000'000) != emu::RunStatus::Reached || !returned())
            throw std::runtime_error("ai_idle did not return after the vertical blank");
    }
    stats_.max_overrun = std::max(stats_.max_overrun, machine_.cycles() - nmi_at_);
    stats_.max_stack = std::max<uint32_t>(stats_.max_stack, machine_.read(co_len_));
    stats_.task_cycles += machine_.cycles() - start;
}

uint8_t CartLoopPlayer::buttons(const PlayerView& view) {
    const PlayerView mine = view_of(loop_.state());
    if (mine.rows != view.rows || mine.currentPiece != view.currentPiece || mine.tetriminoX != view.tetriminoX ||
        mine.tetriminoY != view.tetriminoY || mine.nextPiece != view.nextPiece)
        throw std::logic_error("cartridge player: the game it is given is not the one it started from");
    return loop_.frame();
}

}  // namespace nestris::tools

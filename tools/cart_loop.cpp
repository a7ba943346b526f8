#include "cart_loop.hpp"

#include "cart_image.hpp"
#include "ram_map.hpp"

#include <algorithm>
#include <stdexcept>

namespace nestris::tools {

CartridgeInTheLoop::CartridgeInTheLoop(const GameState& start, CartLoopOptions options)
    : state_(start), options_(options) {
    const CartImage& cart = shipped_cart();
    machine_.load(cart);
    ai_poll_ = cart.require("ai_poll");
    ai_idle_ = cart.require("ai_idle");
    vblank_ = cart.require("verticalBlankingInterval");
    held_ = cart.require("heldButtons_player1");
    drv_active_ = cart.require("drv_active");
    task_late_ = cart.require("task_late");
    co_len_ = cart.require("co_len");
    // The game's controller read: nobody at the controller (newly pressed and held: nothing).
    const uint16_t poll = cart.require("game_pollController");
    const uint16_t newly = cart.require("newlyPressedButtons_player1");
    const uint8_t stub[] = {0xA9, 0x00, 0x85, static_cast<uint8_t>(newly), 0x85, static_cast<uint8_t>(held_), 0x60};
    machine_.load(poll, stub);
    machine_.write(cart.require("ai_mode"), options_.ai_mode);
    mirror();
}

void CartridgeInTheLoop::mirror() {
    to_ram(state_, std::span<uint8_t, kCpuRamSize>(machine_.memory().data(), kCpuRamSize));
}

uint8_t CartridgeInTheLoop::frame() {
    // The NMI's controller poll: the AI's input driver.
    machine_.cpu().set_s(0xFD);
    const emu::CallResult poll = machine_.call(ai_poll_, 100'000);
    if (!poll.ok()) throw std::runtime_error("ai_poll did not return");
    const uint8_t buttons = machine_.read(held_);
    const uint8_t active = machine_.read(drv_active_);
    if (active == 2 && last_drv_active_ != 2) ++stats_.late_pieces;
    last_drv_active_ = active;

    step(state_, buttons);
    mirror();
    ++stats_.frames;

    // The idle time of the frame: the task runs until the vertical blank, then gives back the CPU.
    machine_.write(vblank_, 0);
    machine_.cpu().set_s(0xFD);
    const uint64_t start = machine_.cycles();
    const emu::CallResult idle = machine_.call(ai_idle_, options_.idle_cycles);
    if (idle.status == emu::RunStatus::CycleLimit) {
        machine_.write(vblank_, 1);
        const uint64_t nmi = machine_.cycles();
        if (machine_.run_until_pc(machine_.sentinel(), 10'000'000) != emu::RunStatus::Reached)
            throw std::runtime_error("ai_idle did not return after the vertical blank");
        stats_.max_overrun = std::max(stats_.max_overrun, machine_.cycles() - nmi);
        stats_.max_stack = std::max<uint32_t>(stats_.max_stack, machine_.read(co_len_));
    } else if (!idle.ok()) {
        throw std::runtime_error("ai_idle failed");
    }
    stats_.task_cycles += machine_.cycles() - start;
    stats_.redone_searches = machine_.read(task_late_);
    return buttons;
}

}  // namespace nestris::tools

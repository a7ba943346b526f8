// The standard controller on port 1 ($4016): a strobe-loaded 8-bit shift register.
//
// Writing bit 0 = 1 to $4016 holds the register loading the buttons; while it is held, reads
// return button A. After the strobe drops, each read returns the next button in the order
// A, B, Select, Start, Up, Down, Left, Right, then 1 (what official pads return once empty).
// A read returns $40 | bit: bits 1-4 are what the pad does not drive (0), bits 5-7 open bus,
// which on a real console is the $40 of the address just read ("LDA $4016").
#pragma once

#include <cstdint>

namespace nestris::emu {

namespace button {
inline constexpr uint8_t A = 0x01, B = 0x02, Select = 0x04, Start = 0x08, Up = 0x10,
                         Down = 0x20, Left = 0x40, Right = 0x80;
}

struct Controller {
    uint8_t buttons = 0;  // what the player holds now (button:: bits)
    uint8_t shift = 0;    // bits still to be read, lowest first
    bool strobe = false;

    bool operator==(const Controller&) const = default;

    void write_strobe(uint8_t value) {
        strobe = value & 1;
        if (strobe) shift = buttons;
    }
    uint8_t read() {
        if (strobe) return static_cast<uint8_t>(0x40 | (buttons & 1));
        const uint8_t bit = shift & 1;
        shift = static_cast<uint8_t>((shift >> 1) | 0x80);
        return static_cast<uint8_t>(0x40 | bit);
    }
    uint8_t peek() const {
        return static_cast<uint8_t>(0x40 | ((strobe ? buttons : shift) & 1));
    }
};

}  // namespace nestris::emu

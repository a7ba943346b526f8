#include "ai-reference/model/score_loop.hpp"

#include <cstdint>

namespace nestris {
namespace {

using u8 = uint8_t;

// The points table's bytes (BCD, low byte first): 0, 40, 100, 300, 1 200.
constexpr std::array<uint16_t, 5> kPoints{0x0000, 0x0040, 0x0100, 0x0300, 0x1200};

// 6502 cycle costs of the loop's instructions (zero-page operands, the table read as abs,X
// without a page crossing, every branch inside the loop's page).
constexpr uint64_t kSetup = 2 + 3 + 3 + 3 + 5;  // lda #0 / sta holdDownPoints / lda level / sta, inc counter
constexpr uint64_t kBranchTaken = 3, kBranchNotTaken = 2;

}  // namespace

ScoreLoopWork score_loop_work(uint8_t level, uint8_t lines, std::array<uint8_t, 3> score) {
    const uint16_t points = kPoints[lines < 5 ? lines : 0];
    const u8 low = static_cast<u8>(points & 0xFF), high = static_cast<u8>(points >> 8);
    uint64_t c = kSetup;
    // and #$0F / cmp #$0A / bcc, and when the low digit is over 9: lda b / clc / adc #6 / sta b
    auto adjust_low_digit = [&c](u8& b) {
        c += 2 + 2;
        if ((b & 0x0F) < 0x0A) {
            c += kBranchTaken;
        } else {
            c += kBranchNotTaken + 3 + 2 + 2 + 3;
            b = static_cast<u8>(b + 6);
        }
    };
    u8 counter = static_cast<u8>(level + 1);
    do {
        // lda completedLines / asl / tax / lda pointsTable,x / clc / adc score / sta score / cmp #$A0
        c += 3 + 2 + 2 + 4 + 2 + 3 + 3 + 2;
        u8 v = static_cast<u8>(score[0] + low);
        score[0] = v;
        if (v < 0xA0) {
            c += kBranchTaken;
        } else {  // clc / adc #$60 / sta score / inc score+1
            c += kBranchNotTaken + 2 + 2 + 3 + 5;
            score[0] = static_cast<u8>(v + 0x60);
            ++score[1];
        }
        // inx / lda pointsTable,x / clc / adc score+1 / sta score+1, then the adjust on A (= score+1)
        c += 2 + 4 + 2 + 3 + 3;
        score[1] = static_cast<u8>(score[1] + high);
        adjust_low_digit(score[1]);
        c += 3 + 2 + 2;  // lda score+1 / and #$F0 / cmp #$A0
        if ((score[1] & 0xF0) < 0xA0) {
            c += kBranchTaken;
        } else {  // lda score+1 / clc / adc #$60 / sta score+1 / inc score+2
            c += kBranchNotTaken + 3 + 2 + 2 + 3 + 5;
            score[1] = static_cast<u8>(score[1] + 0x60);
            ++score[2];
        }
        c += 3;  // lda score+2
        adjust_low_digit(score[2]);
        c += 3 + 2 + 2;  // lda score+2 / and #$F0 / cmp #$A0
        if ((score[2] & 0xF0) < 0xA0) {
            c += kBranchTaken;
        } else {  // lda #$99 / sta score / sta score+1 / sta score+2: the cap
            c += kBranchNotTaken + 2 + 3 + 3 + 3;
            score = {0x99, 0x99, 0x99};
        }
        --counter;
        c += 5 + (counter != 0 ? kBranchTaken : kBranchNotTaken);  // dec generalCounter / bne
    } while (counter != 0);
    return {c, score};
}

}  // namespace nestris

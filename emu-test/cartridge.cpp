#include "emu-test/cartridge.hpp"

namespace nestris::emu {

namespace {
constexpr size_t kHeader = 16;
constexpr size_t kTrainer = 512;
constexpr size_t kPrgBank = 16 * 1024;
constexpr size_t kChrBank = 8 * 1024;
constexpr size_t kMaxPrg = 256 * 1024;
constexpr size_t kMaxChr = 128 * 1024;  // MMC1 CHR registers address 32 x 4 KiB
constexpr size_t kPrgRamWindow = 8 * 1024;  // $6000-$7FFF

// A NES 2.0 RAM size nibble: 64 << n bytes, 0 for none.
size_t nes2_ram_bytes(unsigned n) { return n ? size_t{64} << n : 0; }

std::string kib(size_t bytes) { return std::to_string(bytes / 1024) + " KiB"; }
}  // namespace

std::shared_ptr<const Cartridge> parse_ines(std::span<const uint8_t> img) {
    if (img.size() < kHeader) {
        throw InesError("not an iNES image: " + std::to_string(img.size()) +
                        " bytes, shorter than the 16-byte header");
    }
    if (img[0] != 'N' || img[1] != 'E' || img[2] != 'S' || img[3] != 0x1A) {
        throw InesError("not an iNES image: the file does not start with \"NES\\x1A\"");
    }
    auto cart = std::make_shared<Cartridge>();
    const uint8_t f6 = img[6], f7 = img[7];
    cart->nes2 = (f7 & 0x0C) == 0x08;
    size_t prg_banks = img[4];
    size_t chr_banks = img[5];
    size_t prg_ram = kPrgRamWindow;
    cart->mapper = (f6 >> 4) | (f7 & 0xF0);
    if (cart->nes2) {
        prg_banks |= static_cast<size_t>(img[9] & 0x0F) << 8;
        chr_banks |= static_cast<size_t>(img[9] & 0xF0) << 4;
        cart->mapper |= (img[8] & 0x0F) << 8;
        prg_ram = nes2_ram_bytes(img[10] & 0x0F) + nes2_ram_bytes(img[10] >> 4);
    } else if ((f7 & 0x0C) != 0 || img[12] || img[13] || img[14] || img[15]) {
        // Old dumping tools wrote text ("DiskDude!") into bytes 7-15: bytes 7 and 8 are garbage
        // then (PRG-RAM stays 8 KiB).
        cart->mapper = f6 >> 4;
    } else if (img[8]) {
        prg_ram = img[8] * kPrgRamWindow;  // iNES 1.0: 8 KiB units, 0 meaning 8 KiB
    }
    cart->vertical_mirroring = f6 & 0x01;
    cart->battery = f6 & 0x02;
    const bool has_trainer = f6 & 0x04;

    if (prg_banks == 0) throw InesError("invalid iNES header: 0 PRG banks");
    if (cart->mapper != 0 && cart->mapper != 1) {
        throw InesError("unsupported mapper " + std::to_string(cart->mapper) +
                        ": only mappers 0 (NROM) and 1 (MMC1, as Tetris uses) are emulated");
    }
    const size_t prg = prg_banks * kPrgBank;
    const size_t chr = chr_banks * kChrBank;
    if (cart->mapper == 0 && (prg > 2 * kPrgBank || chr > kChrBank))
        throw InesError("NROM with " + kib(prg) + " PRG and " + kib(chr) + " CHR: NROM has at most 32 KiB and 8 KiB");
    if (prg > kMaxPrg) {
        throw InesError("PRG of " + kib(prg) + ": MMC1 boards with more than 256 KiB PRG "
                        "(SUROM/SXROM) are not emulated");
    }
    if (chr > kMaxChr) throw InesError("CHR of " + kib(chr) + ": MMC1 addresses at most 128 KiB");
    // PRG-RAM: NROM test boards have 8 KiB whatever the header says. More than the 8 KiB window
    // is refused, not clamped: MMC1 boards with more (SOROM, SXROM) bank it through the CHR
    // registers, which is not emulated, and a game that counts on it would go wrong quietly.
    if (cart->mapper == 0) prg_ram = kPrgRamWindow;
    if (prg_ram > kPrgRamWindow) {
        throw InesError("PRG-RAM of " + (prg_ram % 1024 ? std::to_string(prg_ram) + " bytes" : kib(prg_ram)) +
                        ": only 8 KiB at $6000-$7FFF is emulated (MMC1 boards with more, SOROM and "
                        "SXROM, bank it)");
    }
    if (has_trainer && prg_ram == 0)
        throw InesError("a trainer (512 bytes for $7000) on a cartridge whose header declares no PRG-RAM");
    cart->prg_ram_size = static_cast<uint32_t>(prg_ram);

    const size_t need = kHeader + (has_trainer ? kTrainer : 0) + prg + chr;
    if (img.size() < need) {
        throw InesError("truncated iNES image: the header announces " + kib(prg) + " PRG and " +
                        kib(chr) + " CHR" + (has_trainer ? " after a trainer" : "") + ", " +
                        std::to_string(need) + " bytes in all, but the file has " +
                        std::to_string(img.size()));
    }
    size_t at = kHeader;
    if (has_trainer) {
        cart->trainer.assign(img.begin() + static_cast<std::ptrdiff_t>(at),
                             img.begin() + static_cast<std::ptrdiff_t>(at + kTrainer));
        at += kTrainer;
    }
    cart->prg.assign(img.begin() + static_cast<std::ptrdiff_t>(at),
                     img.begin() + static_cast<std::ptrdiff_t>(at + prg));
    at += prg;
    cart->chr.assign(img.begin() + static_cast<std::ptrdiff_t>(at),
                     img.begin() + static_cast<std::ptrdiff_t>(at + chr));
    return cart;
}

}  // namespace nestris::emu

// Fuzzes ROM identification and the iNES reader: any bytes must be identified without a crash,
// and what is reported must be consistent.
#include "patcher/rom.hpp"

#include <cstdint>
#include <cstdlib>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::span<const uint8_t> file(data, size);
    const nestris::RomIdentity id = nestris::identify_rom(file, {nestris::known_roms(), 0x12345678});
    if (id.file_size != size || id.payload_size > size) std::abort();
    if (id.file_sha1.size() != 40 || id.payload_sha1.size() != 40) std::abort();
    if (id.summary().empty()) std::abort();
    if ((id.kind == nestris::RomKind::Patched) != id.signature.has_value()) std::abort();
    if (id.signature && id.signature->file_offset + nestris::kSignatureSize > size) std::abort();
    if (id.header) {
        if (id.header->describe().empty()) std::abort();
        // Re-encoding keeps what iNES 1.0 can say.
        const auto again = nestris::parse_ines(nestris::encode_ines(*id.header));
        if (!again || again->vertical_mirroring != id.header->vertical_mirroring ||
            again->trainer != id.header->trainer || again->battery != id.header->battery)
            std::abort();
    }
    return 0;
}

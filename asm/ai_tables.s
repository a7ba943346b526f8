; The AI's constant tables: generated from the C++ reference (piece geometry, rotation choices,
; gravity, row transitions, evaluation tables from weights.txt), plus the bit masks of cells
; and of a run's two neighbours (written here: they follow from the row layout alone).
.include "ai.inc"

.include "ai_tables.inc"

; The bit of cell i of a row (i = column + 1; 0 and 11 are the walls, which rows always hold)
; in its low byte (cells 0-7) and high byte (cells 8-11): gen_bit_hi's first 8 entries (0) are
; gen_bit_lo's last 4 and the 4 after them.
.segment "PACK_gen_bit_lo"
gen_bit_lo: .byte $01, $02, $04, $08, $10, $20, $40, $80
gen_bit_hi: .byte $00, $00, $00, $00, $00, $00, $00, $00, $01, $02, $04, $08

; The two neighbours of a run of n cells (n = 1-4) in a row whose left neighbour is cell i:
; entry (n - 1) * 12 + i holds bit i | bit i + n + 1 (low and high byte as in gen_bit_lo/hi).
; Entries whose right neighbour would be past the right wall (cell 11) are never used: the
; tables stop at the last one used (n = 4, i = 6).
HALO_ENTRIES = 3 * 12 + 7
.segment "PACK_gen_halo_lo"
gen_halo_lo:
.repeat HALO_ENTRIES, e
    .byte <((1 << (e .mod 12)) | (1 << (e .mod 12 + e / 12 + 2)))
.endrepeat

.segment "PACK_gen_halo_hi"
gen_halo_hi:
.repeat HALO_ENTRIES, e
    .byte <(((1 << (e .mod 12)) | (1 << (e .mod 12 + e / 12 + 2))) >> 8)
.endrepeat

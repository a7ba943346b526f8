; The AI's constant tables: generated from the C++ reference (piece geometry, rotation choices,
; gravity, row transitions, evaluation tables from weights.txt), plus the bit masks of cells
; and of a run's two neighbours (written here: they follow from the row layout alone).
.include "ai.inc"

.export gen_shape_min_dx, gen_shape_width, gen_shape_min_dy2
.export gen_shape_column, gen_shape_runs
.export gen_rot_count, gen_spawn_orientation, gen_type_of_orientation, gen_rotate_cw, gen_rotate_ccw
.export gen_frames_per_drop, gen_nibble_count, gen_gravity_base, gen_rows2
.export gen_hole_lo, gen_hole_hi, gen_stack_lo, gen_stack_hi
.export gen_spawn_lo, gen_spawn_hi, gen_ready_lo, gen_ready_hi, gen_cover_lo, gen_cover_hi
.export gen_lines_lo, gen_lines_hi, gen_row_lo, gen_row_hi, gen_row_delta_lo, gen_row_delta_hi

.segment "AI_TABLES"
.include "ai_tables.inc"

.export gen_bit_lo, gen_bit_hi
; The bit of cell i of a row (i = column + 1; 0 and 11 are the walls, which rows always hold)
; in its low byte (cells 0-7) and high byte (cells 8-11).
gen_bit_lo: .byte $01, $02, $04, $08, $10, $20, $40, $80, $00, $00, $00, $00
gen_bit_hi: .byte $00, $00, $00, $00, $00, $00, $00, $00, $01, $02, $04, $08

.export gen_halo_lo, gen_halo_hi
; The two neighbours of a run of n cells (n = 1-4) in a row whose left neighbour is cell i:
; entry (n - 1) * 12 + i holds bit i | bit i + n + 1 (low and high byte as in gen_bit_lo/hi).
; Entries whose right neighbour would be past the right wall (cell 11) are never used.
.segment "SPARE_9540"
gen_halo_lo:
.repeat 4, n
    .repeat 12, i
        .byte <((1 << i) | (1 << (i + n + 2)))
    .endrepeat
.endrepeat

.segment "SPARE_9B09"
gen_halo_hi:
.repeat 4, n
    .repeat 12, i
        .byte <(((1 << i) | (1 << (i + n + 2))) >> 8)
    .endrepeat
.endrepeat

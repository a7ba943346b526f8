; Reachability (AI_DESIGN.md, "Reachability: the input schedule"): for a piece type, every
; placement the fixed schedule of presses can reach on eb, in the canonical order (rotation
; slots none, A, A+A, B; columns 5, 4, .., then 6, 7, ..).
;
; "Above the surface at row r" is "r <= landing row" (inside the walls), so once the rotations
; are done (shifts s > presses p) every check of a target is a comparison with its landing row:
; the target needs R(2s-1) <= landing, the columns beyond it need R(2s) <= landing.
.include "ai.inc"

.segment "AI_ZP_SWEEP": zeropage
sw_p:     .res 1    ; its rotation presses
sw_step:  .res 1    ; the sweep's step from column to column: -1 ($FF, leftward) or +1
sw_s:     .res 1    ; shifts to the column at hand
sw_n:     .res 1    ; input frames of the target: max(shifts, presses)
sw_i:     .res 1
sw_need:  .res 1
sw_rbase: .res 1    ; the search's gravity: its block of gen_rows2
sw_dirty: .res 1    ; the shape at hand is not the target orientation's
sw_l2:    .res 1    ; landing row + 2 of the target orientation at the column at hand
sh_mindx: .res 1    ; the shape at hand (set_shape): leftmost column, 11 - width, table entry o*4
sh_limit: .res 1
sh_base:  .res 1

.segment "AI_ZP_EVAL": zeropage
sw_all:   .res 1    ; not 0: every placement of the type is reachable (no checks but the walls)


.segment "AI_BSS"
sw_o:     .res 3    ; orientation after 0, 1, 2 rotation presses
sw_count: .res 1

; The sweep keeps the target orientation, its rotation slot and the column at hand where
; ai_on_target takes them.
sw_ot  = z_o
sw_rot = z_rot
sw_x   = z_x

; The shape at hand at column A: C = 0 outside the walls; else C = 1 and A = landing row + 2
; (the lowest row its lowest cells can sit on, + 2): 23 - the highest (height + lowest cell + 2)
; of its columns. The columns after the first are unrolled: set_shape points the jump at the
; block of the shape's last column (a block a column, the last column's first). Clobbers X, Y
; and z_s0.
.segment "RAM_landing_at"
.proc landing_at
highest    = z_s0           ; the highest height + lowest cell + 2 of the columns so far
    clc
    adc sh_mindx
    cmp sh_limit            ; the first column: 0 .. 10 - width (left of the wall: $FD-$FF)
    bcs outside
    tay                     ; first column
    ldx sh_base
    lda gen_shape_column,x
    and #$03                ; lowest cell + 2
    adc eb_h,y              ; (C = 0)
    sta highest             ; the first column's sum: the highest so far
jump:
    jmp last                ; (set_shape: the block of the shape's last column)
.repeat 3, K
.ident(.sprintf("column%d", 3 - K)):
    lda gen_shape_column+3-K,x
    and #$03
    adc eb_h+3-K,y          ; (C = 0)
    cmp highest
    bcc :+
    sta highest
    clc
:
.endrepeat
last:
    lda #23
    sec
    sbc highest
    rts                     ; (C = 1)
outside:
    clc
    rts
; the jump's low byte by the shape's width (1-4)
entries:
    .byte <last, <column1, <column2, <column3
.assert >column3 = >last, lderror, "landing_at's blocks must be in one page (set_shape sets the jump's low byte)"
.assert column2 - column3 = column1 - column2 && last - column1 = column1 - column2, error, "landing_at's blocks must be one size"
.endproc

; C = 1 when the piece after min(i, presses) presses (i: A), at sw_x, is above the surface at
; row R(2i) (check::at_2i), or at R(2i) while more input frames follow and R(2i-1) on the last
; one, i >= sw_n (check::at_step). The target orientation's landing row is known (sw_l2); another
; orientation's is computed, leaving its shape at hand (sw_dirty set).
.segment "RAM_check"
.proc check
at_step:
    pha
    cmp sw_n                ; C = 1: the last input frame
    rol
    eor #1                  ; 2i + 1, less 1 on the last input frame
    bpl rows                ; (always: i is a count of presses or shifts, 0-2)
at_2i:
    pha
    sec
    rol                     ; 2i + 1
rows:
    adc sw_rbase            ; (C = 0 from the rol)
    tay
    lda gen_rows2-1,y       ; row + 2 of the piece 2i (or 2i - 1) frames after spawn (row 0 in the hold)
    sta sw_need
    pla                     ; the orientation after min(i, presses) presses
    cmp sw_p
    bcc presses
    lda sw_p
presses:
    tax                     ; k presses
    lda sw_o,x
    cmp sw_ot
    bne other
    lda sw_l2
    cmp sw_need
    rts
other:
    tax
    jsr set_shape
    lda #1
    sta sw_dirty
    lda sw_x
    jsr landing_at
    bcc no
    cmp sw_need             ; C = landing + 2 >= row + 2
no:
    rts
.endproc

; Every reachable placement of piece type z_type on eb, in the canonical order: each is passed
; to ai_on_target in z_o, z_x, z_y, z_rot. The gravity must be set (ai_set_gravity_rows).
.segment "RAM_ai_sweep_type"
.proc ai_sweep_type
    ; Every placement is reachable when the piece stays above every column during the longest
    ; schedule (5 input frames: rows up to R(9), cells down to row + 1): the highest column at
    ; most 18 - R(9). Then the sweep needs no check but the walls; and with the highest column at
    ; most ROWS - 4 - the rows a placement must leave free (s_top2 - 2: from level 128 the high
    ; rows) (a piece is at most 4 rows tall), no placement tops out, which the first test alone
    ; does not give in the hold (R(9) = 0): the evaluation needs no top-out check.
    lda eb_max08
    cmp eb_h+9
    bcs highest
    lda eb_h+9
highest:
    tax
    clc
    adc s_top2
    cmp #ROWS-2+1
    bcs far                 ; (C = 1)
    txa
    ldy sw_rbase
    adc gen_rows2+9,y       ; (C = 0) highest + R(9) + 2
    cmp #18+2+1
far:
    lda #0
    sta sw_rot
    adc #$FF                ; 0 when C = 1
    sta sw_all              ; not 0: highest + R(9) <= 18 and highest <= ROWS - 2 - s_top2
    ldx z_type
    lda gen_rot_count,x
    sta sw_count
    lda game_spawnTable,x
    sta sw_o
choice:
    ldx sw_rot
    lda slot_presses,x
    sta sw_p
    lda sw_o                ; orientations after 1 and 2 presses (A, or B in slot 3), from
    cpx #3                  ; the game's rotationTable: two bytes an orientation, B's then A's
    rol                     ; (C = 1: B)
    eor #1                  ; 2 orientation + 1 for A
    tay
    lda game_rotationTable,y
    sta sw_o+1
    asl                     ; a second press is A's: slot 2 alone has one (the checks read
    tay                     ; sw_o up to sw_p presses; slot 3's sw_o+2 is never read)
    lda game_rotationTable+1,y
    sta sw_o+2
    ldx sw_p
    lda sw_o,x
    sta sw_ot
    jsr ai_load_target      ; (A = z_o: its row data, for every evaluation of the two sweeps)
    lda #0
    jsr sweep               ; columns 5, 4, ...
    lda #1
    jsr sweep               ; columns 6, 7, ...
    inc sw_rot
    lda sw_rot
    cmp sw_count
    bne choice
    rts
.endproc
; The rotation presses of each slot (none, A, A+A, B; publish has their last frames, slot_last).
slot_presses:
    .byte 0, 1, 2, 1

; One sweep from shifts A outward: 0 leftward (sw_step -1), 1 rightward (+1). A step of the task
; of its own: near the top, many sweeps reach nothing (no evaluation, no step's end).
.segment "RAM_sweep"
.proc sweep
    sta sw_s
    asl
    sbc #0                  ; (C = 0) 2 A - 1
    sta sw_step
    jsr ai_yield
    lda sw_s
    clc
    adc #SPAWN_X            ; column 5 (leftward, s = 0) or 6 (rightward, s = 1)
    sta sw_x
    ldx sw_ot
    jsr set_shape
    lda #0
    sta sw_dirty
    beq target              ; (always)
    ; every placement reachable: no check but the walls, column after column (C = 1, A = landing
    ; row + 2 of the column at hand); ai_on_target inline, most evaluations stopping at the bound,
    ; and no placement tops out (the stack is low)
all:
    sbc #2
    sta z_y
    adc tg_dy2              ; (C = 1: + 1)
    sbc #2                  ; (C = 0: - 3) y + the highest cell: the top row
    tay
    jsr ai_eval_on_board
    bne all_yield
    jsr ai_take_evaluated
all_yield:                  ; (ai_yield's test: ai_yield_inline, a yield to the tests' timing)
    lda verticalBlankingInterval
    bne all_switch          ; (not taken but once a frame: no page crossing to pay)
all_step:
    lda sw_x
    clc
    adc sw_step
    sta sw_x
    jsr landing_at
    bcs all
    rts
all_switch:
    jsr ai_yield
    beq all_step            ; (always: ai_yield returns Z = 1, from its test or resume's copy)

target:
    ; the target orientation at this column: inside the walls, its landing row
    lda sw_x
    jsr landing_at
    bcc done
    ldx sw_all
    bne all                 ; every placement is reachable
    sta sw_l2
    lda sw_s
    cmp sw_p
    beq rotations
    bcc rotations
    ; s > presses: every check is against the landing row
    asl
    adc sw_rbase            ; (C = 0: s < 128)
    tay
    lda sw_l2
    cmp gen_rows2-1,y       ; R(2s-1) + 2 <= landing + 2: reachable
    bcc done                ; the target, and every column further out, is out of reach
    jsr emit
    lda sw_s                ; the columns further out: R(2s) <= landing
    asl
    adc sw_rbase
    tay
    lda sw_l2
    cmp gen_rows2,y         ; R(2s) + 2 <= landing + 2: on to the next column
    bcs next
done:
    rts

rotations:                  ; s <= presses (s = 0, 1, 2): the checks of the schedule one by one
    lda sw_p                ; n = max(s, presses) = presses
    sta sw_n
    lda sw_s
    beq steps
    ; shift step s: the shifted piece in the old orientation at R(2s-2) ...
    sec
    sbc #1
    jsr check::at_2i
    bcc done
    ; ... then rotated, at R(2s) if more input frames follow, else R(2s-1)
    lda sw_s
    jsr check::at_step
    bcc done
steps:
    lda sw_s                ; rotation steps i = s+1 .. n at this column
    sta sw_i
    ora sw_n
    bne step
    jsr check::at_2i        ; (A = 0) no input at all: the spawned piece at row 0
    jmp settled
step:
    lda sw_i
    cmp sw_n
    bcs settled             ; (C = 1) every step held: reached
    jsr check::at_2i        ; o(i) at R(2i)
    bcc settled
    inc sw_i
    lda sw_i
    jsr check::at_step      ; o(i+1) at R(2(i+1)) or R(2(i+1)-1)
    bcs step
settled:                    ; C = 1: the target is reached
    jsr shape_back
    bcc prefix
    jsr emit
prefix:
    ; the columns further out need the shifted, rotated piece to hold at R(2s)
    lda sw_s
    beq next
    cmp sw_n
    bcc next                ; that check was the strict one already
    jsr check::at_2i
    jsr shape_back
    bcc done
next:
    inc sw_s
    lda sw_x
    clc
    adc sw_step
    sta sw_x
    jmp target

; The target orientation's shape back at hand (its landing row in sw_l2 is still current).
; Keeps C (a check's answer).
shape_back:
    php
    lda sw_dirty
    beq clean
    dec sw_dirty            ; (1: check sets it so)
    ldx sw_ot
    jsr set_shape
clean:
    plp
    rts

; Hand the target to ai_on_target (z_o, z_x and z_rot are the sweep's own).
emit:
    lda sw_l2
    sec
    sbc #2
    sta z_y
.endproc
; fall through
; A reachable placement (z_o, z_x, z_y, z_rot): first ply, keep it among the K best; second
; ply, keep the best cost (ai_take_evaluated, ai_search.s). Yields to the game afterwards. (The
; sweep's loop for "every placement reachable" does the same with the calls inline.)
.proc ai_on_target
    jsr ai_eval_placement
    bne out                 ; stopped at the bound: neither a candidate nor a better reply
    jsr ai_take_evaluated
out:
    jmp ai_yield
.endproc

; Where the sweep polls for the NMI itself rather than calling ai_yield (the step timing of the
; tests and benchmarks counts it as a yield).
.export ai_yield_inline := sweep::all_yield

; The shape of orientation X for landing_at, which it rewrites: its jump to the block of the
; shape's last column. Keeps X, clobbers Y.
.segment "RAM_set_shape"
.proc set_shape
    lda gen_shape_min_dx,x
    sta sh_mindx
    lda #COLUMNS+1
    sec
    sbc gen_shape_width,x
    sta sh_limit            ; 11 - width
    ldy gen_shape_width,x
    lda landing_at::entries-1,y
    sta landing_at::jump+1
    txa
    asl
    asl
    sta sh_base
    rts
.endproc

; The gravity of the search: A = frames per drop, C = hold (the first piece of a game).
.segment "RAM_ai_set_gravity_rows"
.proc ai_set_gravity_rows
    bcs hold
    cmp #12
    bcc known
    lda #12                 ; every slower gravity: row 0 for as long as the inputs last
known:
    tax
    lda gen_gravity_base,x
    .byte $2C               ; (BIT abs: skips the LDA #0)
hold:
    lda #0
    sta sw_rbase
    rts
.endproc

; Reachability (AI_DESIGN.md, "Reachability: the input schedule"): for a piece type, every
; placement the fixed schedule of presses can reach on eb, enumerated in the canonical order
; (rotation choices none, A, A+A, B; columns 5, 4, .., then 6, 7, ..). The sweeps share the
; checks of the shift steps between targets, as a prefix that holds or stops the sweep.
.include "ai.inc"
.include "ai_gen.inc"

.import ai_on_target

.segment "AI_BSS"
sw_o:     .res 3    ; orientation after 0, 1, 2 rotation presses
sw_ot:    .res 1    ; the target orientation
sw_p:     .res 1    ; its rotation presses
sw_rot:   .res 1    ; its rotation choice index
sw_left:  .res 1    ; sweeping left?
sw_s:     .res 1    ; shifts to the column at hand
sw_x:     .res 1    ; the column at hand
sw_n:     .res 1    ; input frames of the target: max(shifts, presses)
sw_i:     .res 1
sw_count: .res 1

.segment "AI_CODE"

; C = 1 when orientation X at column Y, origin row A, lies inside the walls with every cell
; above its column's top (eb_h). Clobbers A, X, Y, z_t4..z_t6.
.export ai_above
.proc ai_above
    sta z_t5
    tya
    clc
    adc gen_shape_min_dx,x
    bmi no                  ; left of the wall
    sta z_t6                ; first column
    clc
    adc gen_shape_width,x
    cmp #COLUMNS+1
    bcs no                  ; right of the wall
    lda gen_shape_width,x
    sta z_t4
    txa
    asl
    asl
    tax                     ; shape entry o*4
    ldy z_t6
column:
    lda gen_shape_column,x
    and #$03                ; lowest cell + 2
    clc
    adc z_t5
    adc eb_h,y              ; row + bottom + 2 + height: must be <= 21
    cmp #22
    bcs no
    inx
    iny
    dec z_t4
    bne column
    sec
    rts
no:
    clc
    rts
.endproc

; A = landing row of orientation X at column Y on eb (the column heights): the lowest row its
; lowest cells can sit on. Clobbers X, Y, z_t4..z_t6.
.proc landing_row
    tya
    clc
    adc gen_shape_min_dx,x
    tay
    lda gen_shape_width,x
    sta z_t4
    txa
    asl
    asl
    tax
    lda #$FF
    sta z_t5                ; lowest so far, + 2
column:
    lda gen_shape_column,x
    and #$03
    sta z_t6
    lda #23                 ; 19 - height - bottom + 2 = 23 - height - (bottom + 2)
    sec
    sbc eb_h,y
    sec
    sbc z_t6
    cmp z_t5
    bcs not_lower
    sta z_t5
not_lower:
    inx
    iny
    dec z_t4
    bne column
    lda z_t5
    sec
    sbc #2
    rts
.endproc

; grav_rows[m] = row of a piece m frames after spawn: m / frames per drop, 0 in the hold.
; A = frames per drop, C = hold.
.proc ai_set_gravity_rows
    sta z_t0
    lda #0
    bcs fill_zero
    sta z_t1                ; frames into the current row
    ldx #0
    ldy #0                  ; row
next:
    tya
    sta grav_rows,x
    inx
    cpx #11
    beq done
    inc z_t1
    lda z_t1
    cmp z_t0
    bne next
    lda #0
    sta z_t1
    iny
    jmp next
fill_zero:
    ldx #10
zero:
    sta grav_rows,x
    dex
    bpl zero
done:
    rts
.endproc
.export ai_set_gravity_rows

; Every reachable placement of piece type z_type on eb, in the canonical order: each is passed
; to ai_on_target in z_o, z_x, z_y, z_rot. grav_rows must be set.
.proc ai_sweep_type
    ldx z_type
    lda gen_rot_count,x
    sta sw_count
    lda gen_spawn_orientation,x
    sta sw_o
    lda #0
    sta sw_rot
choice:
    ldx sw_rot
    lda slot_presses,x
    sta sw_p
    ; orientations after 1 and 2 presses (A, or B in slot 3)
    ldy sw_o
    cpx #3
    beq ccw
    lda gen_rotate_cw,y
    sta sw_o+1
    tay
    lda gen_rotate_cw,y
    sta sw_o+2
    jmp target_orientation
ccw:
    lda gen_rotate_ccw,y
    sta sw_o+1
    tay
    lda gen_rotate_ccw,y
    sta sw_o+2
target_orientation:
    ldx sw_p
    lda sw_o,x
    sta sw_ot
sweeps:
    lda #1
    sta sw_left
    lda #0
    jsr sweep               ; columns 5, 4, ...
    lda #0
    sta sw_left
    lda #1
    jsr sweep               ; columns 6, 7, ...
    inc sw_rot
    lda sw_rot
    cmp sw_count
    bne choice
    rts
slot_presses:
    .byte 0, 1, 2, 1        ; slots none, A, A+A, B
.endproc

; Orientation after min(A, presses) presses -> X.
.proc orientation_after
    cmp sw_p
    bcc ok
    lda sw_p
ok:
    tax
    lda sw_o,x
    tax
    rts
.endproc

; One sweep from shifts A outward (sw_left: leftward).
.proc sweep
    sta sw_s
target:
    ; the column, and the target orientation inside the walls
    lda sw_left
    beq right
    lda #SPAWN_X
    sec
    sbc sw_s
    jmp have_x
right:
    lda #SPAWN_X
    clc
    adc sw_s
have_x:
    sta sw_x
    ldx sw_ot
    clc
    adc gen_shape_min_dx,x
    jmi done
    clc
    adc gen_shape_width,x
    cmp #COLUMNS+1
    jcs done
    ; n = max(s, presses)
    lda sw_s
    cmp sw_p
    bcs s_is_max
    lda sw_p
s_is_max:
    sta sw_n
    lda sw_s
    beq rotations_only
    ; shift step s: the shifted piece in the old orientation at row R(2s-2) ...
    sec
    sbc #1
    jsr orientation_after
    lda sw_s
    asl
    tay
    lda grav_rows-2,y
    ldy sw_x
    jsr ai_above
    jcc done
    ; ... then rotated, at R(2s) if more input frames follow, else R(2s-1)
    lda sw_s
    jsr orientation_after
    lda sw_s
    asl
    tay
    lda sw_s
    cmp sw_n
    bcc strict
    dey
strict:
    lda grav_rows,y
    ldy sw_x
    jsr ai_above
    jcc done                ; fails for every column further out as well
rotations_only:
    ; rotation steps i = s+1 .. n at this column
    lda sw_s
    sta sw_i
    bne rotate_step
    lda sw_n
    bne rotate_step
    ; no input at all: the spawned piece at row 0
    ldx sw_o
    lda grav_rows
    ldy sw_x
    jsr ai_above
    bcc after_target
    jmp reached
rotate_step:
    lda sw_i
    cmp sw_n
    bcs reached
    jsr orientation_after   ; o(i) for step i+1
    lda sw_i
    asl
    tay
    lda grav_rows,y         ; R(2(i+1)-2)
    ldy sw_x
    jsr ai_above
    bcc after_target
    inc sw_i
    lda sw_i
    jsr orientation_after
    lda sw_i
    asl
    tay
    lda sw_i
    cmp sw_n
    bcc strict2
    dey
strict2:
    lda grav_rows,y
    ldy sw_x
    jsr ai_above
    bcc after_target
    jmp rotate_step
reached:
    ldx sw_ot
    ldy sw_x
    jsr landing_row
    sta z_y
    lda sw_ot
    sta z_o
    lda sw_x
    sta z_x
    lda sw_rot
    sta z_rot
    jsr ai_on_target
after_target:
    ; the prefix for the next column: the shifted, rotated piece must hold at R(2s)
    lda sw_s
    beq next
    cmp sw_n
    bcc next                ; that check was the strict one already
    jsr orientation_after
    lda sw_s
    asl
    tay
    lda grav_rows,y
    ldy sw_x
    jsr ai_above
    jcc done
next:
    inc sw_s
    jmp target
done:
    rts
.endproc

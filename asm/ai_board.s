; Board routines of the cartridge AI: the evaluation board (eb) and its cached sums.
.include "ai.inc"
.include "ai_gen.inc"

.segment "AI_CODE_HI"

; Row cost index: A = row low byte, Y = row high byte -> X = transitions, the index into
; gen_row_lo/hi. Clobbers A, z_t7.
.export ai_row_index
.proc ai_row_index
    tax
    lda gen_trans_lo,x      ; left wall and columns 0-7
    sta z_t7
    txa
    asl                     ; C = column 7
    tya
    rol                     ; (columns 8-9) << 1 | column 7
    tax
    lda gen_trans_edge,x    ; columns 7-9 and the right wall
    clc
    adc z_t7
    tax
    rts
.endproc

; eb_h and eb_f from the rows of eb (rows top to bottom, columns 0-9).
.proc ai_recompute_columns
    lda #0
    ldx #COLUMNS-1
clear:
    sta eb_h,x
    sta eb_f,x
    dex
    bpl clear
    ldy #0
row:
    lda eb_lo,y
    sta z_t0
    lda eb_hi,y
    sta z_t1
    tya
    eor #$FF
    sec
    adc #ROWS               ; 20 - row: the height a cell of this row gives its column
    sta z_t2
    ldx #0
column:
    lsr z_t1
    ror z_t0                ; C = cell of column x
    bcc next
    inc eb_f,x
    lda eb_h,x
    bne next
    lda z_t2
    sta eb_h,x
next:
    inx
    cpx #COLUMNS
    bne column
    iny
    cpy #ROWS
    bne row
    rts
.endproc

; eb_rowsum = sum of the row costs; eb_colsum = sum of the hole and bump costs.
.proc ai_board_caches
    lda #0
    sta eb_rowsum
    sta eb_rowsum+1
    lda #ROWS-1
    sta z_t6
rows:
    ldx z_t6
    lda eb_hi,x
    tay
    lda eb_lo,x
    jsr ai_row_index
    lda gen_row_lo,x
    clc
    adc eb_rowsum
    sta eb_rowsum
    lda gen_row_hi,x
    adc eb_rowsum+1
    sta eb_rowsum+1
    dec z_t6
    bpl rows
    jsr ai_column_sum
    lda z_cost
    sta eb_colsum
    lda z_cost+1
    sta eb_colsum+1
    rts
.endproc

; z_cost = sum of hole costs (columns 0-9) and bump costs (pairs 0-1 .. 7-8) of eb_h/eb_f.
.export ai_column_sum
.proc ai_column_sum
    lda #0
    sta z_cost
    sta z_cost+1
    ldx #COLUMNS-1
holes:
    lda eb_h,x
    sec
    sbc eb_f,x
    tay
    lda gen_hole_lo,y
    clc
    adc z_cost
    sta z_cost
    lda gen_hole_hi,y
    adc z_cost+1
    sta z_cost+1
    dex
    bpl holes
    ldx #7
bumps:
    jsr ai_bump_cost_add
    dex
    bpl bumps
    rts
.endproc

; z_cost += bump cost of the pair (x, x+1) of eb_h. Keeps X.
.export ai_bump_cost_add
.proc ai_bump_cost_add
    jsr bump_index
    lda gen_bump_lo,y
    clc
    adc z_cost
    sta z_cost
    lda gen_bump_hi,y
    adc z_cost+1
    sta z_cost+1
    rts
.endproc

; z_delta -= bump cost of the pair (x, x+1) of eb_h. Keeps X.
.export ai_bump_cost_sub
.proc ai_bump_cost_sub
    jsr bump_index
    lda z_delta
    sec
    sbc gen_bump_lo,y
    sta z_delta
    lda z_delta+1
    sbc gen_bump_hi,y
    sta z_delta+1
    rts
.endproc

; Y = |eb_h[x] - eb_h[x+1]|.
.proc bump_index
    lda eb_h,x
    sec
    sbc eb_h+1,x
    bcs positive
    eor #$FF
    adc #1                  ; C was clear: two's complement
positive:
    tay
    rts
.endproc

; z_cost += stack, spawn and well costs of eb_h.
.proc ai_extremes_eval
    ; highest and lowest of columns 0-8
    lda eb_h+8
    sta z_t0                ; highest
    sta z_t1                ; lowest
    ldx #7
scan:
    lda eb_h,x
    cmp z_t0
    bcc not_higher
    sta z_t0
not_higher:
    cmp z_t1
    bcs not_lower
    sta z_t1
not_lower:
    dex
    bpl scan
    ldy z_t0
    lda gen_stack_lo,y
    ldx gen_stack_hi,y
    jsr add_ax
    ; highest of columns 3-6
    lda eb_h+3
    ldx #2
spawn_scan:
    cmp eb_h+4,x
    bcs keep
    lda eb_h+4,x
keep:
    dex
    bpl spawn_scan
    tay
    lda gen_spawn_lo,y
    ldx gen_spawn_hi,y
    jsr add_ax
    ; the well column against the lowest other column
    lda z_t1
    sec
    sbc eb_h+9
    bcc covered             ; well column above the lowest other column
    cmp #7
    bcc ready_ok
    lda #6
ready_ok:
    tay
    lda gen_ready_lo,y
    ldx gen_ready_hi,y
    jmp add_ax
covered:
    eor #$FF
    adc #1                  ; C clear: h9 - lowest
    tay
    lda gen_cover_lo,y
    ldx gen_cover_hi,y
.endproc
; fall through
; z_cost += X:A.
.export add_ax
.proc add_ax
    clc
    adc z_cost
    sta z_cost
    txa
    adc z_cost+1
    sta z_cost+1
    rts
.endproc

; z_cost = the full evaluation of eb (needs eb_rowsum/eb_colsum current).
.proc ai_full_eval
    lda eb_rowsum
    clc
    adc eb_colsum
    sta z_cost
    lda eb_rowsum+1
    adc eb_colsum+1
    sta z_cost+1
    jmp ai_extremes_eval
.endproc

; eb = base (rows, heights, filled).
.proc ai_base_to_eb
    ldx #2*ROWS+2*COLUMNS-1
copy:
    lda base_lo,x
    sta eb_lo,x
    dex
    bpl copy
    rts
.endproc

; Board routines of the cartridge AI: the evaluation board (eb), its column summaries and the
; caches the incremental evaluation starts from.
.include "ai.inc"

; The columns and caches of eb from its rows: eb_f (rows top to bottom), then eb_h
; (ai_heights_from_rows) and the caches.
.segment "RAM_ai_prepare_board"
.proc ai_prepare_board
cells_lo   = z_t0           ; the row's cells, column c at bit c (shifted out column by column)
cells_hi   = z_t1
row_saved  = z_t3           ; the row at hand, kept over the yield
    lda #0
    ldx #COLUMNS-1
clear:
    sta eb_f,x
    dex
    bpl clear
    tay                     ; (A = 0) from the top row
row:
    lda eb_hi,y
    lsr                     ; drop the left wall: column c at bit c
    and #$03                ; and the right one: the walk ends after the row's last cell
    sta cells_hi
    lda eb_lo,y
    ror
    sta cells_lo
    ldx #0
column:
    lsr cells_hi
    ror cells_lo            ; C = cell of column x
    bcc next
    inc eb_f,x
next:
    inx
    lda cells_lo
    ora cells_hi
    bne column
    iny
    cpy #ROWS/2
    bne same_step
    sty row_saved           ; a full board takes two steps of the task
    jsr ai_yield
    ldy row_saved
same_step:
    cpy #ROWS
    bne row
    tay                     ; (A = 0: the last row's cells all walked) the heights, from the top row
.endproc
; fall through
; eb_h from the rows of eb: top down from row Y (the rows above it are empty), the columns first
; seen filled in a row get its height (a full row's too, as the reference's recompute_columns:
; ai_apply_placement leaves none but where a placement that topped out is not cleared). Then the
; caches.
.proc ai_heights_from_rows
unseen_lo  = z_s0           ; the columns not seen filled so far, as in a row (walls: 0)
unseen_hi  = z_s1
new_lo     = z_t0           ; the columns first seen filled in the row at hand
new_hi     = z_t1
height     = z_t2           ; their height: 20 - row
    lda #0
    ldx #COLUMNS-1
clear:
    sta eb_h,x
    dex
    bpl clear
    lda #$FE                ; not seen so far: every column
    sta unseen_lo
    lda #$07
    sta unseen_hi
row:
    lda unseen_lo
    and eb_lo,y
    sta new_lo              ; cells of columns 0-6 first seen here (bits 1-7)
    lda unseen_hi
    and eb_hi,y
    sta new_hi              ; of columns 7-9 (bits 0-2)
    ora new_lo
    beq next
    lda unseen_lo
    eor new_lo
    sta unseen_lo
    lda unseen_hi
    eor new_hi
    sta unseen_hi
    tya
    eor #$FF
    sec
    adc #ROWS
    sta height              ; 20 - row
    ldx #$FF                ; (the wall's bit first: it is 0)
column:
    lsr new_hi
    ror new_lo              ; C = column x first seen here (7-9 after 0-6, from new_hi)
    bcc column_next
    lda height
    sta eb_h,x
column_next:
    inx
    lda new_lo
    ora new_hi
    bne column
    lda unseen_lo
    ora unseen_hi
    beq done                ; all seen
next:
    iny
    cpy #ROWS
    bne row
done:
.endproc
; fall through
; The caches of eb: eb_tr and eb_rowsum (rows), the prefix sums of hole costs, the extremes.
; A step of the background task of their own.
.proc ai_board_caches
row_saved  = z_t6           ; the row at hand
row_lo     = z_s0           ; its low byte,
row_hi     = z_s0           ; then its high byte,
counted_tr = z_s0           ; then the transitions counted so far
    jsr ai_yield
    lda #0
    sta eb_rowsum
    sta eb_rowsum+1
    ldx #ROWS-1
rows:
    stx row_saved
    lda eb_hi,x
    tay
    lda eb_lo,x
    cmp #$01                ; an empty row (the walls alone: most of the rows above the stack)
    bne count               ; has 2 transitions
    cpy #$08
    bne count
    lda #2
    bne counted             ; (always)
count:
    ; the transitions of the row A (low byte) / Y (high byte): the popcount of row ^ (row >> 1)
    ; over bits 0..10 (rows hold both walls: bit 0 the left one, bit c+1 column c, bit 11 the
    ; right one), by nibbles: the index into gen_row_lo/hi
    sta row_lo
    tya
    lsr                     ; C = cell 8
    lda row_lo
    ror                     ; (row >> 1), low byte
    eor row_lo
    tax                     ; changes among cells 0-8
    sty row_hi
    tya
    lsr
    eor row_hi
    and #$07                ; changes among cells 8-11
    tay
    lda gen_nibble_count,y
    sta counted_tr
    txa
    lsr
    lsr
    lsr
    lsr
    tay
    lda gen_nibble_count,y
    clc
    adc counted_tr
    sta counted_tr          ; (C = 0: no carry, and none below)
    txa
    and #$0F
    tay
    lda gen_nibble_count,y
    adc counted_tr
counted:
    ldx row_saved
    sta eb_tr,x
    tay
    lda gen_row_lo,y
    clc
    adc eb_rowsum
    sta eb_rowsum
    lda gen_row_hi,y
    adc eb_rowsum+1
    sta eb_rowsum+1
    dex
    bpl rows
    ; prefix sums of the hole costs
    lda #0
    sta hp_lo
    sta hp_hi
    tax
holes:
    lda eb_h,x
    holes_of_column
    lda gen_hole_lo,y
    clc
    adc hp_lo,x
    sta hp_lo+1,x
    lda gen_hole_hi,y
    adc hp_hi,x
    sta hp_hi+1,x
    inx
    cpx #COLUMNS
    bne holes
    ; the lowest of columns 0-8 left of each column (pre_min) and from each column on (suf_min)
    lda #$FF
    ldx #$100-COLUMNS       ; (column x + COLUMNS - $100: the loop ends at 0)
pre:
    sta pre_min+COLUMNS-$100,x ; lowest of 0 .. x-1
    cmp eb_h+COLUMNS-$100,x
    bcc pre_keep
    lda eb_h+COLUMNS-$100,x
pre_keep:
    inx
    bne pre
    lda #$FF
    sta suf_min+8           ; from 9 and 10: none of 0-8
    sta suf_min+9
    ldx #8
suf:
    cmp eb_h,x
    bcc suf_keep
    lda eb_h,x
suf_keep:
    sta suf_min-1,x         ; lowest of x .. 8
    dex
    bne suf
    ; max08 = highest of columns 0-8, max38 = highest of SPAWN_TERM_FIRST-8 (the names of these
    ; scratch bytes are ai.inc's; min08 is not needed: eb_base takes a well that costs nothing)
    lda eb_h+8
    sta max08
    ldx #7
scan:
    lda eb_h,x
    cmp max08
    bcc not_higher
    sta max08
not_higher:
    .assert SPAWN_TERM_FIRST > 0 && SPAWN_TERM_FIRST < 8, error, "ai_board_caches takes max38 in max08's scan (and C = 0 after it)"
    cpx #SPAWN_TERM_FIRST   ; (the scan goes down from column 8: the highest so far is max38)
    bne next_column
    lda max08
    sta max38
    sta eb_max38
next_column:
    dex
    bpl scan
    lda max08
    sta eb_max08
    lda s_stack_off         ; at one row a frame (its stack table): 20 - the highest, a piece's
    beq rise_known          ; top row above it raises the stack term; below, 0: no early rise
    lda #20+1               ; (the stack term is too small there to stop evaluations early)
    sbc max08               ; (C = 0: the scan's last cpx, column 0 below SPAWN_TERM_FIRST)
rise_known:
    sta eb_top08
    ; eb_base = rows + holes + stack + spawn + lines cost of a placement that clears nothing:
    ; a lower bound of every such placement's cost but for its rows (holes, stack and spawn
    ; costs only grow when nothing is cleared; the well's is never below 0)
    lda eb_rowsum
    clc
    adc hp_lo+COLUMNS
    sta z_cost
    lda eb_rowsum+1
    adc hp_hi+COLUMNS
    sta z_cost+1
    lda gen_lines_lo
    ldx gen_lines_hi
    jsr add_ax
    lda #0                  ; the stack and spawn terms through ai_extremes_cost, with a well that
    sta well_h              ; costs nothing: 4 rows ready (gen_well's entry READY_ZERO)
    lda #READY_ZERO
    sta min08
    jsr ai_extremes_cost
    lda z_cost
    sta eb_base
    lda z_cost+1
    sta eb_base+1
.endproc
; fall through
; The gap term's heights and the prefix sums of its costs (not in eb_base: a placement can fill
; a gap, so they are no lower bound); the last part of ai_board_caches, and a step's end.
.proc gap_prefix
    lda #ROWS
    sta eb_hwall
    sta gh                  ; gh: the left wall (as high as the board), then eb_h
    ldx #COLUMNS-1
copy:
    lda eb_h,x
    sta gh+1,x
    dex
    bpl copy
    lda #0
    sta gp_lo
    sta gp_hi
    tax
gaps:
    ; column X's gap: how far it lies below the lower of its neighbours (0 when not below both)
    lda gh,x                ; the left neighbour
    cmp gh+2,x              ; the right one
    bcc lower
    lda gh+2,x
lower:
    sec
    sbc gh+1,x
    bcs below
    lda #0
below:
    tay
    clamp_gap_y
    lda gen_gap_lo,y
    clc
    adc gp_lo,x
    sta gp_lo+1,x
    lda gen_gap_hi,y
    adc gp_hi,x
    sta gp_hi+1,x
    inx
    cpx #COLUMNS-1
    bne gaps
    jmp ai_yield            ; (and a step ends)
.endproc

; The row term's tables in the step of the search's speed, Y its stack table (0, or
; STACK_FAST_OFFSET at one row a frame): ROW_STEP or ROW_STEP_FAST a class, in gen_row (by a
; row's transitions) and gen_row_delta (by a placement's class changes). They are in PRG-RAM and
; say themselves which step they hold, by gen_row_delta's entry for +4 classes, written last:
; s_stack_off cannot say it, being cleared before a person plays. Rewritten only when the speed
; changed: then C = 1 (eb's caches were worked out in the other step). Y kept.
.segment "RAM_ai_row_tables"
.proc ai_row_tables
step_lo   = z_t0
step_hi   = z_t1
sum_lo    = z_t2
sum_hi    = z_t3
kept_y    = z_t4
    sty kept_y
    ldx #<ROW_STEP
    lda #>ROW_STEP
    cpy #0
    beq chosen
    ldx #<ROW_STEP_FAST
    lda #>ROW_STEP_FAST
chosen:
    stx step_lo
    sta step_hi
    ; 4 x the step against the table's
    asl step_lo             ; (steps are below $4000: ai_eval.hpp's cap)
    rol
    asl step_lo
    rol
    cmp gen_row_delta_hi+8
    bne rewrite
    lda step_lo
    cmp gen_row_delta_lo+8
    bne rewrite
    clc
    rts
rewrite:
    stx step_lo             ; (A: 4 x the step's high byte, step_hi kept)
    lda #0
    sta sum_lo
    sta sum_hi
    tax                     ; k = 0..4: the class, and the class changes
each:
    txa                     ; -k x the step at class changes -k (entry 4 - k)
    eor #$FF
    clc
    adc #4+1
    tay
    lda #0
    sec
    sbc sum_lo
    sta gen_row_delta_lo,y
    lda #0
    sbc sum_hi
    sta gen_row_delta_hi,y
    txa                     ; class k: 2k + 2 transitions
    asl
    tay
    lda sum_lo
    sta gen_row_lo+2,y
    lda sum_hi
    sta gen_row_hi+2,y
    lda sum_lo              ; +k x the step at class changes +k (entry 4 + k)
    sta gen_row_delta_lo+4,x
    lda sum_hi
    sta gen_row_delta_hi+4,x
    lda sum_lo
    clc
    adc step_lo
    sta sum_lo
    lda sum_hi
    adc step_hi
    sta sum_hi
    inx
    cpx #4+1
    bne each
    ldy kept_y
    sec
    rts
.endproc

; z_cost += stack, spawn and well costs, from max08, min08, max38 and well_h (the scratch
; bytes of the column extremes, named in ai.inc).
.segment "RAM_ai_extremes_cost"
.proc ai_extremes_cost
    lda max08
    clc
    adc s_stack_off
    tay
    lda gen_stack_lo,y
    ldx gen_stack_hi,y
    jsr add_ax
    ldy max38
    lda gen_spawn_lo,y
    ldx gen_spawn_hi,y
    jsr add_ax
.endproc
; fall through
; z_cost += the well's cost, from min08 (lowest of 0-8) and well_h (the well column's height).
.proc ai_well_cost
    lda min08
    sec
    sbc well_h              ; lowest - h9
    bcs ready               ; the well column at or below the lowest other column
    eor #$FF                ; (C = 0) h9 - lowest - 1
    adc #WELL_COVER_OFFSET+1 ; the cover part's entry h9 - lowest
    bne cost                ; (always)
ready:
    cmp #READY_CAP+1
    bcc cost
    lda #READY_CAP
cost:
    tay
    lda gen_well_lo,y
    ldx gen_well_hi,y
.endproc
; fall through
; z_cost += X:A.
.proc add_ax
    clc
    adc z_cost
    sta z_cost
    txa
    adc z_cost+1
    sta z_cost+1
    rts
.endproc

; The AI's background task, the per-piece plan policy (AI_DESIGN.md): it runs in the game's idle
; time as a coroutine (ai_coroutine.s: ai_idle, ai_yield, resume, next_frame).
;
;   at a spawn:  the search done while the previous piece fell is checked against what the game
;                shows (board, piece, level, lines; else it is redone, and counted in task_late)
;                and finalized with the preview: the piece's plan goes to the input driver;
;   then:        the chosen placement is applied and the search for the preview piece runs while
;                the piece falls;
;   late:        if that piece spawns before its search is done, the search is dropped and the
;                piece gets the best placement found so far (late_spawn), provided the game shows
;                the board the search assumed: the first input still comes on time.
; A game's first piece has no previous piece: its search runs in the hold (96 frames), and its
; inputs start on frame FIRST_PIECE_START_FRAME.
.include "ai.inc"
.include "hooks.inc"

PLAN_LOST   = $4C       ; plan_ok when the piece has no reachable placement (not a plan)

.segment "AI_BSS_PLAN"
cur_id:     .res 1      ; spawnCount of the piece the task is working for
plan_ok:    .res 1      ; PLAN_OK: the plan in slot plan_at is for the piece plan_id
plan_id:    .res 1
plan_at:    .res 1      ; the slot (0, 1) of the plan published last: publish fills the other
                        ; one and then switches, so the driver never reads half a plan
plan_shift: .res 2      ; per slot: Left or Right, pressed on odd frames k <= plan_shift_last (0: no shift)
plan_shift_last: .res 2
plan_rot:   .res 2      ; A or B (0: none), pressed on odd frames k <= plan_rot_last
plan_rot_last: .res 2
plan_down:  .res 2      ; Down held from frame k = plan_down (max(2n, 1))
plan_flip:  .res 2      ; 1: the lock is a clear the crash rule makes with the other preview
plan_k:     .res 2      ; the candidate it plays
task_late:  .res 1      ; searches redone at a spawn because the game differed from the prediction
late_plans: .res 1      ; pieces given the best placement of an unfinished search (counts, wraps)
in_search:  .res 1      ; nonzero while the search for the preview piece runs (ai_task_main);
                        ; IN_HATE while hate mode's choice runs (hate_choose)
pred_sum:   .res 2      ; eb_checksum of the board that search assumes
finishing:  .res 1      ; nonzero while late_spawn finishes a search for the preview alone
fin_type:   .res 1      ; the preview's type it finishes for ($FF: none)
fin_slot:   .res 1      ; the slot of the plan it then published ($FF: none)
late_exact: .res 1      ; pieces whose search, cut short at their spawn, was finished for the
                        ; preview before their first input (counts, wraps): the full search's plan

.segment "AI_BSS"       ; (PRG_RAM_VARS: late_spawn sets it before finish_search reads it, so it needs
fin_from:   .res 1      ; no clear before a person's game) the candidate the finish begins at

; The task. Never returns.
.segment "RAM_ai_task_main"
.proc ai_task_main
new_game:
    jsr next_frame
    bcs new_game
    lda spawnCount
    sta cur_id
    bcc read                ; (always: C = 0, a piece)
next_piece:
    jsr hate_person_lock    ; (a person's hate game: on at the person's lock, hate.s)
    jsr ply2_k_placement    ; the chosen candidate
placed:
    jsr ai_apply_placement  ; eb: the board after the piece
    jsr ai_yield
    lda z_lines
    jsr ai_after_lines      ; the level when the preview piece spawns
    lda hate_on
    beq search_ahead
    jsr hate_choose         ; hate mode: the type the preview's spawn deals (hate.s), first
search_ahead:
    jsr preview_type
    sta s_type
    sta s_hold              ; (a type, below $80: no hold)
    ; the search for the preview piece, while the piece falls; resume may abandon it at the
    ; preview's spawn (then late_spawn goes on from what it found). pred_sum: the board it assumes.
    jsr eb_checksum
    sta pred_sum
    stx pred_sum+1
    inc in_search
    jsr ai_precompute_prepared
    dec in_search           ; (1: resume has not restarted the task)
wait_spawn:
    jsr next_frame
    bcs wait_spawn          ; no piece under control
    lda spawnCount
    cmp cur_id
    beq wait_spawn          ; the same piece still
    sta cur_id
    lda #1
    jsr read_or_check       ; was the prediction right? else search again on what the game shows
    bcs decide
redo:
    inc task_late
read:
    lda #0
    jsr read_or_check       ; the board, the piece and the level the game shows
    jsr ai_precompute
decide:
    ldx #0                  ; no preview shown: the first candidate (the best of the first ply)
    lda displayNextPiece
    bne finalize
    jsr preview_type        ; else the candidate with the best reply to the preview
    ldx best_k,y
finalize:
    lda cand_count
    beq no_plan
chosen:
    stx ply2_k
    jsr publish
published:
    lda drv_active          ; did the driver give the piece up before the plan came (2)?
    lsr
    beq next_piece          ; (0, 1: on time)
    lda drv_id
    cmp cur_id
    bne next_piece
    ldx s_type              ; then it falls as it spawned (its spawn orientation, column 5,
    lda game_spawnTable,x   ; straight down), and the next search starts from that
    sta z_o
    tax
    jsr set_shape
    lda #SPAWN_X
    sta z_x
    jsr landing_at          ; (C = 1: the spawn column is inside the walls)
    sbc #2
    sta z_y
    jmp placed
no_plan:
    lda #PLAN_LOST          ; nothing reachable: the game is lost; wait for the next one
    sta plan_ok
lost:
    jsr next_frame
    jmp lost
.endproc

.segment "RAM_preview_type"
; A, Y = the preview piece's type.
.proc preview_type
    ldy nextPiece
    lda game_tetriminoTypeFromOrientation,y
    tay
    rts
.endproc

ai_task_read := ai_task_main::read     ; (hate_person_lock: the search on the board the game shows)

; The task's entry when the preview spawned before hate mode's choice was done (resume): the
; game's draw stays in the preview (hate_deal), and the search for the piece, not begun, is made
; on the board the game shows.
.segment "RAM_hate_late"
.proc hate_late
    lda spawnCount
    sta cur_id
    jmp ai_task_main::read
.endproc

; The task's entry when the piece spawned before its search was done (resume). If the piece,
; level and lines are the ones the search assumed, the piece gets the best candidate so far at
; once: with the preview's best reply when the second ply has looked at two candidates or more,
; else the first candidate (the best of the first ply so far). Then eb goes back to the board the
; search began from and, in what is left of the spawn frame, the second ply goes on for the
; preview's type alone (all the decision needs): if it ends before the piece's first input, the
; piece gets the full search's plan instead. Last, the game must show that board; else (or when
; the search had found nothing) the search is redone and the piece falls as it is. In a coach game
; the search is redone at once.
.segment "RAM_late_spawn"
.proc late_spawn
    lda spawnCount
    sta cur_id
    .assert AI_MODE_COACH = 1, error, "late_spawn tells the coach by dex"
    ldx ai_mode             ; the coach: the search at the spawn is quick (the preview's type alone,
    dex                     ; coach_spawn_search), and nobody's first input waits for it: it is
    beq redo                ; done over, in full
    lda #$FF
    sta fin_type
    sta fin_slot
    sta drv_slot            ; (the piece has no plan yet: the driver has taken none)
    lda #3
    jsr read_or_check       ; the piece, level and lines
    bcc redo
    ldx cand_count
    bne found
redo:
    jmp ai_task_main::redo
found:
    ldx #0
    lda s_ply
    lsr
    bcs chosen              ; still in the first ply (s_ply 1)
    lda displayNextPiece
    bne chosen              ; no preview shown
    jsr preview_type
    sta fin_type
    ldx ply2_k              ; the preview's replies are missing from candidate ply2_k on, or from
    cpy z_type              ; the next one when its sweep for that type was done (z_type: the
    bcs from_known          ; type the second ply was at)
    inx
from_known:
    stx fin_from
    ldx ply2_k
    beq chosen              ; the first candidate's replies: it is the best so far
    ldx best_k,y
chosen:
    jsr publish             ; first: the driver needs it on the next frame
    ldx fin_type
    bmi no_finish
    lda drv_slot
    bpl no_finish           ; the driver has taken a plan: the first input is made
    jsr ply2_for_type
    lda eb_state
    cmp #EB_CHANGING
    bne on_eb
    jsr restore_eb          ; the board read again: EB_SPAWN
    bcc redo
on_eb:
    inc finishing           ; resume ends it at the next frame (finish_late)
    jsr finish_search       ; (it publishes the best for the preview after each candidate)
    dec finishing           ; (1: resume has not restarted the task)
    lda plan_at
    sta fin_slot
no_finish:                  ; (finish_late too)
    jsr restore_eb
    bcc redo
verify:
    lda #1
    jsr read_or_check       ; the game shows the board the search assumed (eb)
    bcc redo
    ; the piece plays the plan the driver took at its first input frame (drv_slot; late_spawn set
    ; it to $FF before the piece had a plan), or will take: plan_at's
    ldy drv_slot
    bpl slot_known
    ldy plan_at
slot_known:
    lda plan_k,y
    sta ply2_k
    cpy fin_slot
    bne best_so_far
    inc late_exact
    bcs counted             ; (always: C = 1 from the cpy)
best_so_far:
    inc late_plans
counted:
    jmp ai_task_main::published
.endproc

; A frame passed before late_spawn's finish was done: the piece follows the best placement so far.
finish_late = late_spawn::no_finish

; eb back to the board the search began from (with its columns and caches): the candidate the
; second ply had on it taken off, or, when the search stopped while eb was changing, the game's
; board read again; then C = 0 if it is not the board the search assumed (pred_sum).
.segment "RAM_restore_eb"
.proc restore_eb
    lda eb_state
    beq clean               ; EB_SPAWN
    cmp #EB_CANDIDATE
    beq candidate
    .assert EB_CHANGING * 2 = 2, error, "restore_eb doubles EB_CHANGING to read_or_check's mode 2"
    asl                     ; (EB_CHANGING) mode 2: check, and read the board
    jsr read_or_check
    bcc done
    jsr ai_prepare_board
    jsr eb_checksum
    cmp pred_sum
    bne differ
    cpx pred_sum+1
    beq restored
differ:
    clc
    rts
candidate:
    jsr restore_spawn_board
restored:
    lda #EB_SPAWN
    sta eb_state
clean:
    sec
done:
    rts
.endproc

; A, X: two running sums (Fletcher's) over eb's rows: whether the game shows the board a search
; assumed, when eb itself has been worked on since.
.segment "RAM_eb_checksum"
.proc eb_checksum
sum_of_sums = z_t1          ; the sum of the sums (the bytes' sum: A)
    lda #0
    sta sum_of_sums
    ldy #2*ROWS-1           ; eb_hi's bytes, then eb_lo's
.assert eb_hi = eb_lo + ROWS, error, "eb_checksum reads eb_lo and eb_hi as one run"
byte:
    clc
    adc eb_lo,y
    tax
    clc
    adc sum_of_sums
    sta sum_of_sums
    txa
    dey
    bpl byte
    ldx sum_of_sums
    rts
.endproc

; The plan of candidate X for the input driver: the odd frames up to which the shift and the
; rotation are pressed, and the frame from which Down is held. Written into the slot the driver
; does not read, which then becomes plan_at.
.segment "RAM_publish"
.proc publish
rot_end    = z_t0           ; the rotation's last frame (plan_rot_last)
    lda plan_at
    eor #1
    tay                     ; the slot written
    txa
    sta plan_k,y
    jsr lock_flip
    sta plan_flip,y
    lda #SPAWN_X
    sec
    sbc cand_x,x            ; 5 - x: the shifts leftward (none at column 5)
    bcs left
    eor #$FF
    adc #1                  ; (C = 0 from here) x - 5 rightward
left:
    pha                     ; the shifts
    .assert BUTTON_LEFT = BUTTON_RIGHT + 1, error, "publish picks the shifts' button by C"
    lda #BUTTON_RIGHT
    adc #0                  ; (C = 1: leftward)
    sta plan_shift,y
    lda cand_rot,x
    tax
    lda slot_buttons,x
    sta plan_rot,y
    lda slot_last,x
    sta plan_rot_last,y
    sta rot_end
    pla
    asl                     ; (C = 0)
    beq shift_last
    sbc #0
shift_last:
    sta plan_shift_last,y
    cmp rot_end             ; Down from max(2 max(shifts, presses), 1): the later last frame + 1
    bcs n_known
    lda rot_end
n_known:
    clc
    adc #1
    sta plan_down,y
    sty plan_at             ; the driver reads the new slot from here on
    lda cur_id
    sta plan_id
    lda #PLAN_OK
    sta plan_ok
    jmp set_ghost           ; (the coach's ghost: kept in every mode, drawn in coach games)
slot_buttons:
    .byte 0, BUTTON_A, BUTTON_A, BUTTON_B
slot_last:                  ; the rotation's last frame: 2p - 1 for p presses (slot_presses), 0 for none
    .byte 0, 1, 3, 1
.endproc

; A = 1 when candidate X's lock is a clear whose class the crash rule makes with the other preview
; at the spawn's level (the ranges gen_flip_first, gen_flip_count, by the class ai_eval_clear
; computes), else 0. X and Y kept.
.segment "RAM_publish"
.proc lock_flip
    lda cand_lines,x
    beq done                ; no line: the level's preview
    tya
    pha
    lda s_lines_lo
    and #$0F
    clc
    adc cand_lines,x
    cmp #10                 ; (C: the tens change)
    lda cand_lines,x
    rol
    tay                     ; the class + 2
    lda s_level
    sec
    sbc gen_flip_first-2,y
    cmp gen_flip_count-2,y  ; (C = 0: flipped)
    pla
    tay
    lda #0
    bcs done
    lda #1
done:
    rts
.endproc

; A = 0: the search inputs from the game (the board into eb, the piece, level, lines, B-Type,
; the hold). A = 1: C = 1 when the game shows what the search assumed (board, piece, level, lines).
; A = 2: C = 1 when the piece, level and lines are as assumed; the board into eb. A = 3: C = 1
; when the piece, level and lines are as assumed.
.segment "RAM_read_or_check"
read_shown_at:              ; where the game shows them, in zero page, in s_type's order (z_t0:
    .byte z_t0, levelNumber, lines, lines+1, gameType, autorepeatY ; read_or_check's shown_type)
.assert s_btype = s_lines_hi + 1 && s_hold = s_btype + 1, error, "read_or_check reads s_type .. s_hold as one run"
.proc read_or_check
mode       = z_t4           ; A: 0 read, 1 check, 2 check and read the board, 3 check
shown_type = z_t0           ; the piece's type the game shows
    sta mode
    ldx #3                  ; s_type .. s_hold are adjacent: a check takes the first four,
    tay
    bne shown
    ldx #5                  ; a read all six
shown:
    ldy currentPiece
    lda game_tetriminoTypeFromOrientation,y
    sta shown_type
field:
    ldy read_shown_at,x
    lda a:0,y               ; what the game shows
    ldy mode
    bne compare
    sta s_type,x
    beq next                ; (always: mode 0)
compare:
    cmp s_type,x
    bne differ
next:
    dex
    bpl field
    cpy #3                  ; (Y = mode)
    bcc rows
    rts                     ; (C = 1) the fields only
differ:
    clc
    rts
rows:
    tya
    and #1                  ; 1: compare the rows; 0, 2: read them
.endproc
; fall through
; The playfield, row by row, as 12-bit rows (walls included; a cell is filled when its tile is
; below the empty tile, as the game's collision test has it): A = 0 stores them in eb's rows;
; A = 1 compares them and returns C = 1 when they all equal eb's. A step of the background task
; every 4 rows.
.proc scan_playfield
comparing  = z_t3           ; A: 1 compare the rows, 0 store them
cell_at    = z_t5           ; the cell at hand (playfield index), over a yield
row_at     = z_t6           ; the row at hand
bits_lo    = z_t0           ; the row's 12 bits (bits_hi's old bits are all shifted out)
bits_hi    = z_t1
    sta comparing
    ldy #ROWS*COLUMNS-1     ; the cell at hand (playfield index)
    lda #ROWS-1
    sta row_at
row:
    ldx #1                  ; the right wall (filled: 1), then the cells from column 9
    stx bits_lo
    ldx #COLUMNS            ; the row's cells still to go
cell:
    lda #EMPTY_TILE-1
    cmp playfield,y         ; C = filled (its tile below the empty tile)
    rol bits_lo
    rol bits_hi
    dey
    dex
    bne cell
    sec                     ; the left wall (filled): the 12 bits
    rol bits_lo
    rol bits_hi
    ldx row_at
    lda bits_lo
    cmp eb_lo,x
    bne new_row
    lda bits_hi
    cmp eb_hi,x
    beq next
new_row:                    ; a row eb does not hold: a difference, or stored
    lda comparing
    bne read_or_check::differ
    lda bits_lo
    sta eb_lo,x
    lda bits_hi
    sta eb_hi,x
next:
    txa
    and #3
    bne same_step
    sty cell_at             ; (a yield keeps no register)
    jsr ai_yield
    ldy cell_at
same_step:
    dec row_at
    bpl row
    sec
    rts
.endproc

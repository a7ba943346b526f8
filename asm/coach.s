; The coach: a person's game (started with B held, hooks_menu.s) in which the cartridge shows,
; as a ghost, where the AI would place the falling piece. The game is the original's to the byte:
; the AI's task runs in the idle time as in its own games (ai_idle), but nobody takes its plan's
; buttons (ai_mode AI_MODE_COACH: ai_poll's human path); each plan it publishes (publish) is
; also kept as the ghost's placement (set_ghost), and ai_idle draws it on the sprites nothing
; else uses (coach_ghost). At the spawn the search knows the preview (coach_spawn_search): the
; best placement of the first ply is drawn at once, and the second ply needs the preview's type
; alone. The coach writes no byte of the game's RAM: only its own and the OAM staging page.
.include "ai.inc"
.include "hooks.inc"

GHOST_ATTRIBUTES = $02          ; the falling piece's palette; the ghost flickers (even frames)

.segment "AI_BSS_PLAN"
ghost_cell0: .res 1             ; the orientation's first byte in game_orientationTable
ghost_x:     .res 1             ; the placement's column
ghost_y:     .res 1             ; and landing row (tetriminoX, tetriminoY)

; The plan just published (plan_k of slot plan_at) as the ghost's placement. Clobbers A, X, Y
; and z_o, z_x, z_y (publish's callers find them again: ai_candidate_placement, undo_candidate).
.segment "PACK_set_ghost"
.proc set_ghost
    ldy plan_at
    ldx plan_k,y
    jsr ai_candidate_placement
    .assert ORIENTATION_SIZE = 12, error, "set_ghost multiplies by 12 (4 + 8)"
    lda z_o                     ; 0-18: times 12 stays below 256
    asl
    asl
    sta ghost_cell0
    asl
    adc ghost_cell0             ; (C = 0)
    sta ghost_cell0
    lda z_x
    sta ghost_x
    lda z_y
    sta ghost_y
    rts
.endproc

; ai_idle, in a coach game, at the start of the frame's idle time: the ghost on even frames, when
; the falling piece has a plan (not paused; gone once the piece locks).
.segment "PACK_coach_ghost"
.proc coach_ghost
    bne_not_playing done
    bne_no_active_piece done
    lda plan_ok
    cmp #PLAN_OK
    bne done
    lda plan_id
    cmp spawnCount
    bne done
    lda frameCounter
    lsr
    bcs done                    ; (C = 0 from here on: no sum below carries, but for a cell above
    ldx ghost_cell0             ; the field, in a placement that tops out)
    ldy #GHOST_OAM
cell:
    lda game_orientationTable,x ; the cell's row offset
    adc ghost_y
    asl
    asl
    asl
    adc #$2F                    ; the field's top row on screen, as the game stages the piece
    sta oamStaging,y
    lda game_orientationTable+1,x ; its tile
    sta oamStaging+1,y
    lda #GHOST_ATTRIBUTES
    sta oamStaging+2,y
    lda game_orientationTable+2,x ; its column offset
    adc ghost_x
    asl
    asl
    asl
    adc #$60                    ; the field's left column on screen
    sta oamStaging+3,y
    inx
    inx
    inx
    iny
    iny
    iny
    iny
    bne cell                    ; (up to the page's end: four cells)
done:
    rts
.endproc

; ai_precompute, after the first ply: in a coach game at the spawn (not the search ahead, which
; is for the preview piece), the best placement so far is published (the first ghost), and the
; second ply is for the preview's type alone, when it is shown (the decision needs no other).
.segment "PACK_coach_spawn_search"
.proc coach_spawn_search
    .assert AI_MODE_COACH = 1, error, "coach_spawn_search tells the coach by dex"
    ldx ai_mode
    dex
    bne done
    lda in_search
    bne done
    jsr publish                 ; (X = 0) the best of the first ply
    lda displayNextPiece
    bne done                    ; (hidden: the decision is candidate 0 whatever the second ply)
    jsr preview_type
    tax
set_ply2_type:                  ; (late_spawn's finish too) the second ply for the type X alone
    stx ply2_first
    inx
    stx ply2_end
done:
    rts
.endproc
ply2_for_type = coach_spawn_search::set_ply2_type

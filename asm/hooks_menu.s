; AI-played games from the level menu: hold Select and press Start (with A held too for the +10
; trick), on the A-Type or the B-Type menu; hold B too for hate mode (hate.s: the AI against the
; cartridge's worst piece); the coach (coach.s): hold B instead. B pressed alone
; in the level menu goes back to the type menu, as ever, but for the coach's chord: A, then B
; within COACH_CHORD_FRAMES frames with A still held (people press two buttons a few frames
; apart), then A let go or held for +10; with Select held too at Start, the person's game against
; hate mode. A hint on the menu says so.
.include "hooks.inc"

; gameMode_levelMenu, Start pressed alone: was lda heldButtons_player1 / cmp #A+Start (Z=1 adds
; 10 to the start level). Select held: the AI plays this game; Select and B: the AI against hate
; mode; B held: the coach. None spoils the +10.
hook_begin LEVEL_START
    jsr level_start
    nop
hook_end LEVEL_START

; gameMode_levelMenu, Start not pressed: was lda newlyPressedButtons_player1 / cmp #B, then bne
; (Z = 1: back to the type menu).
hook_begin LEVEL_B_BACK
    jsr level_b_back
    nop
hook_end LEVEL_B_BACK

; gameMode_levelMenu while it draws the menu (rendering and NMI off): was jsr showHighScores.
hook_begin LEVEL_MENU_HINT
    jsr level_menu_hint
hook_end LEVEL_MENU_HINT

; Without Select or B this takes 30 cycles more than the original's lda / cmp, a multiple of the
; wait's spin (6): the waits after it find their spin where the original's does, so that human
; play's frames take the original's cycles from the game's first.
.segment "RAM_level_start"
.proc level_start
    lda heldButtons_player1
    and #BUTTON_SELECT | BUTTON_B
    beq human                   ; A = AI_MODE_HUMAN
    .assert >* = >human, lderror, "level_start's branch must not cross a page (its cycles)"
    cmp #BUTTON_B
    bne select                  ; Select, with B or without
    lda #AI_MODE_COACH          ; (the coach's path: the cycles it always took)
    .byte $2C                   ; (bit absolute: skips the next lda, 2 bytes, and reads ROM)
ai:
    lda #AI_MODE_GAME
human:
    sta ai_mode
    bit ai_mode
    lda heldButtons_player1
    and #<~(BUTTON_SELECT | BUTTON_B)
    cmp #BUTTON_A | BUTTON_START
    rts
select:
    cmp #BUTTON_SELECT | BUTTON_B
    bne ai                      ; Select: the AI plays
    sta hate_on                 ; Select and B: hate mode (hate.s), the AI against it, or with B
    lda spawnCount              ; (the game's two draws come next: no spawn before the task's
    sta hate_for                ; first choice has this count)
    lda b_first                 ; pressed before Select (the coach's chord, then Select) the person,
    and #BUTTON_B               ; with the coach
    beq ai
    lda #AI_MODE_COACH
    bne human                   ; (always)
.endproc

.segment "AI_BSS_PLAN"         ; (PRG_RAM_CLEARED: 0 from the title screen on)
; The frames left in which B, pressed with A held, makes the coach's chord: COACH_CHORD_FRAMES + 1
; at A's press, one less each level-menu frame after it, down to 0.
chord_window: .res 1
; The buttons held since a press made without Select held (level_b_back): B there, with Select
; held at Start, is the person's hate-mode chord (the coach's chord, then Select).
b_first: .res 1

; Z = 1 when B, pressed alone, goes back to the type menu: as the original's test, but for B
; pressed within the chord's window with A still held, or with Select held (hate mode's chord);
; and b_first. One path of 63 cycles whatever the buttons: with the call's 14 it adds 72 to the
; original's 5, a multiple of the wait's spin (6).
; Clobbers X and Y (the game loads both before it reads them again).
.segment "RAM_level_b_back"     ; (one page: the tables' reads cross none)
.proc level_b_back
    bit z:0                     ; (3 cycles: with the 21 below, 24, a multiple of the spin)
    lda heldButtons_player1
    asl                         ; (Select's bit to B's)
    eor #$FF
    and newlyPressedButtons_player1 ; pressed now without Select held,
    ora b_first                 ; or before,
    and heldButtons_player1     ; and held still
    sta b_first
    lda newlyPressedButtons_player1
    and #BUTTON_A
    .assert BUTTON_A = $80, error, "level_b_back moves A's bit to 8 in four shifts"
    lsr
    lsr
    lsr
    lsr
    ora chord_window            ; 0 to COACH_CHORD_FRAMES + 1, and 8 when A was just pressed
    tax
    ldy next_window,x
    sty chord_window
    lda window_open,y           ; BUTTON_A while the window is open, and BUTTON_SELECT
    and heldButtons_player1
    ora newlyPressedButtons_player1 ; (A held in the window, or Select: not B alone)
    cmp #BUTTON_B
    rts
next_window:
    .byte 0
    .repeat ::COACH_CHORD_FRAMES + 1, i
    .byte i
    .endrepeat
    .res 8 - (::COACH_CHORD_FRAMES + 2), 0
    .res ::COACH_CHORD_FRAMES + 2, ::COACH_CHORD_FRAMES + 1
window_open:                    ; (and Select, held: B pressed then is hate mode's chord, not back)
    .byte ::BUTTON_SELECT
    .res ::COACH_CHORD_FRAMES + 1, ::BUTTON_A | ::BUTTON_SELECT
.endproc

.segment "RAM_hooks_menu"
; The hint goes in the empty row under the high-score table, through the game's own PPU copy
; routine; the high scores are drawn after it as before (so the routine's scratch bytes end as
; they always did).
.proc level_menu_hint
    jsr game_bulkCopyToPpu
    .addr hint
    jmp game_showHighScores
.endproc

; The menu's font: digits 0-9 are tiles $00-$09, letters A-Z $0A-$23, '-' $24; $FF is blank.
; (ASCII codes, not character constants: ca65 maps those through the charmap being built.)
.charmap $20, $FF
.charmap $2D, $24
.repeat 10, i
    .charmap $30 + i, i
.endrepeat
.repeat 26, i
    .charmap $41 + i, $0A + i
.endrepeat
HINT_ROW    = 26
HINT_COLUMN = 4
HINT_WIDTH  = 24                ; the width inside the frame
hint:
    .dbyt $2000 + HINT_ROW * 32 + HINT_COLUMN
    .byte HINT_WIDTH
hint_text:
    .byte " HOLD SELECT-AI B-COACH "
    .assert * - hint_text = HINT_WIDTH, error, "the hint must fill the row inside the frame"
    .byte $FF                   ; end of the copy list

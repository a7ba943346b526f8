; The unpacker: writes the AI's code and tables (AI_EVAL and the RAM_* segments)
; out into PRG-RAM from their packed form in ROM (patcher/code_pack.hpp: the format, and the
; stream in chunks, one a free region, each ended by a jump to the next).
;
; When: every power-on and reset, the init's last waits and the legal screen. The init's jsr
; updateAudio2 (its hook INIT_UNPACK) sets the unpacker up and ai_mode to AI_MODE_UNPACK; then
; ai_idle runs unpack_step in the idle time of each frame until the stream ends, when ai_mode goes
; back to AI_MODE_HUMAN. Nothing calls into PRG-RAM before: the init and the legal screen are the
; game's alone (ai_poll's human path, no AI mode), and the title screen, the first that can start
; the demo, a menu or a game (and so the first to run RAM code: title_enter), comes after the
; legal screen's 255 frames at the least, while the unpacking takes about 35 (tests/game measures
; them). A reset starts it over.
;
; Those frames are the original's: the wait ends at the first token boundary after the NMI (a
; token copies at most 255 bytes: a few thousand cycles), and the frame's work that follows (the
; OAM page's reset, the sleep counter's test) is a small part of a frame; the legal screen's sleep
; is counted by the NMI, so the screen lasts as long.
.include "ai.inc"
.include "hooks.inc"

PACK_JUMP = 63              ; (code_pack.hpp: kPackJump, kPackEnd)
PACK_END  = 62

; The unpacker's state, between frames (the AI's scratch: no AI runs before the code is there).
; up_last and up_after start at 0, as the game's power-on and reset clear of RAM leaves them.
up_src   = z_t0             ; the next byte of the stream
up_dst   = z_t2             ; the next byte of PRG-RAM to write
up_bits  = z_t4             ; bits in hand, a 1 after the last (the buffer's end)
up_last  = z_t5             ; the last match's offset - 1 (2 bytes)
up_after = z_t7             ; 1 after a literal run (the next 0 is a repeat of up_last), else 0
up_from  = z_s0             ; a match's first byte (2 bytes)
up_value = z_rot            ; a gamma code being read
.assert up_from + 1 = z_s1 && up_last + 1 = z_t6, error, "up_from is z_s0 and z_s1, up_last z_t5 and z_t6"

.import __PRG_RAM_CODE_START__, __PACKED_START__

; The init's jsr updateAudio2 (3 bytes), after its clear of RAM, before its first wait.
hook_begin INIT_UNPACK
    jsr init_unpack
hook_end INIT_UNPACK
; The sprite loader, its pointer rewritten by a lag NMI, can read these bytes as sprite data (with
; A held, from $80xx): no $FF (a record's end) where the original (jsr $E003) has none, so the loop
; runs as long as the original's.
.assert <init_unpack <> $FF && >init_unpack <> $FF, lderror, "the INIT_UNPACK hook's bytes must hold no $FF"

.segment "PACK_init_unpack"
; The unpacker's start: its state from unpack_start, ai_mode = AI_MODE_UNPACK; then the game's
; updateAudio2, as the site did.
.proc init_unpack
    ldx #UNPACK_STATE_SIZE - 1
copy:
    lda unpack_start,x
    sta up_src,x
    dex
    bpl copy
    lda #AI_MODE_UNPACK
    sta ai_mode
    jmp game_updateAudio2
.endproc
unpack_start:               ; up_src .. up_bits, in their order
    .word __PACKED_START__
    .word __PRG_RAM_CODE_START__
    .byte $80               ; up_bits: none in hand
UNPACK_STATE_SIZE = * - unpack_start
.assert up_dst = up_src + 2 && up_bits = up_src + 4, error, "the unpacker's state is one run of bytes in unpack_start's order"

; From ai_idle in AI_MODE_UNPACK, the frame's idle time begun (ai_idle's segment: it falls in
; here): tokens until the NMI has come (then the wait's end, as ai_idle's) or the stream's end
; (then the human's wait: ai_mode back to AI_MODE_HUMAN). Token by token, the state in zero page,
; so that the next frame goes on.
.segment "PACK_ai_idle"
.proc unpack_step
token:
    lda verticalBlankingInterval
    beq more
    jmp ai_idle_done
more:
    jsr get_bit
    bcs new_offset
    jsr get_gamma           ; X = n (1-255)
    lda up_after
    bne repeat
    inc up_after            ; a literal run: n bytes of the stream
literal:
    jsr get_byte
    jsr put
    dex
    bne literal
    beq token               ; (always)
new_offset:
    jsr get_gamma           ; the offset's high byte + 1, or a jump, or the end
    cmp #PACK_END
    bcs special
    sbc #0                  ; (C = 0: - 1)
    sta up_last+1
    jsr get_byte
    sta up_last
    jsr get_gamma
    inx                     ; n = the code + 1 (2-255)
repeat:                     ; X = n: a copy from up_last + 1 back
    lsr up_after            ; (1 or 0: now 0)
    lda up_dst              ; up_from = up_dst - up_last - 1
    clc
    sbc up_last
    sta up_from
    lda up_dst+1
    sbc up_last+1
    sta up_from+1
copy:                       ; forward, byte by byte: an overlapping copy repeats its start
    ldy #0
    lda (up_from),y
    inc up_from
    bne :+
    inc up_from+1
:   jsr put
    dex
    bne copy
    beq token               ; (always)
special:
    bne jump                ; (A = PACK_JUMP)
    lda #AI_MODE_HUMAN      ; the end: the code is there
    sta ai_mode
    jmp ai_idle_spin
jump:                       ; the stream goes on at the address that follows
    jsr get_byte
    tax
    jsr get_byte
    sta up_src+1
    stx up_src
    lsr up_after            ; (now 0: N = 0)
    bpl token               ; (always)
.endproc
.assert unpack_step = ai_idle_unpacking, lderror, "unpack_step follows ai_idle in its segment (ai_idle falls in)"

; A to PRG-RAM at up_dst, which moves on. Y = 0.
.proc put
    ldy #0
    sta (up_dst),y
    inc up_dst
    bne done
    inc up_dst+1
done:
    rts
.endproc

; The next bit of the stream into C (the buffer refilled from the stream when it runs out).
; Keeps X.
.proc get_bit
    asl up_bits
    bne done
    jsr get_byte
    sec
    rol a
    sta up_bits
done:
    rts
.endproc

; A = the next byte of the stream, Y = 0. Keeps X.
.proc get_byte
    ldy #0
    lda (up_src),y
    inc up_src
    bne done
    inc up_src+1
done:
    rts
.endproc

; A = X = the next gamma code (1-255): a 0 and a bit for each bit after the top one, then a 1.
.proc get_gamma
    lda #1
    sta up_value
more:
    jsr get_bit
    bcs done
    jsr get_bit
    rol up_value
    bcc more                ; (always: the code stays under 256)
done:
    lda up_value
    tax
    rts
.endproc

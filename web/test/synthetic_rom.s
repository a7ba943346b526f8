; A synthetic ROM in Tetris (USA)'s layout (iNES mapper 1, 2 x 16 KiB PRG, 2 x 8 KiB CHR) for the
; web page's test in CI, where the game is absent. It is not the game and holds none of it: a
; program at $C000 (a part of PRG the patch never writes) that fills the screen with tiles of
; a made-up pattern table and scrolls by one pixel each frame, so every frame's picture differs;
; the buttons held on controller 1 scroll it vertically, so the picture shows the input too.
.segment "HEADER"
    .byte "NES", $1A, 2, 2, $10, 0, 0, 0, 0, 0, 0, 0, 0, 0

.segment "PRG"
PPUCTRL   = $2000
PPUMASK   = $2001
PPUSTATUS = $2002
PPUSCROLL = $2005
PPUADDR   = $2006
PPUDATA   = $2007
JOY1      = $4016
scroll    = $00
buttons   = $01

reset:
    sei
    cld
    ldx #$FF
    txs
    lda #0
    sta PPUCTRL
    sta PPUMASK
    sta scroll
:   bit PPUSTATUS           ; two vertical blanks: the PPU is warm
    bpl :-
:   bit PPUSTATUS
    bpl :-
    lda #$3F
    sta PPUADDR
    lda #$00
    sta PPUADDR
    ldx #0
:   lda palette,x
    sta PPUDATA
    inx
    cpx #32
    bne :-
    lda #$20                ; nametable 0 and its attributes: tiles 0, 1, 2, ...
    sta PPUADDR
    lda #$00
    sta PPUADDR
    ldy #4
    ldx #0
:   stx PPUDATA
    inx
    bne :-
    dey
    bne :-
    lda #0
    sta PPUSCROLL
    sta PPUSCROLL
    lda #$80                ; NMI on
    sta PPUCTRL
    lda #$0A                ; background on, left column too
    sta PPUMASK
forever:
    jmp forever

nmi:
    pha
    lda #1                  ; read controller 1: A, B, Select, Start, Up, Down, Left, Right
    sta JOY1
    lda #0
    sta JOY1
    ldx #8
:   lda JOY1
    lsr a
    rol buttons
    dex
    bne :-
    inc scroll
    bit PPUSTATUS           ; reset the address latch
    lda scroll
    sta PPUSCROLL
    lda buttons
    sta PPUSCROLL
    pla
irq:
    rti

palette:
    .byte $0F, $16, $2A, $12, $0F, $27, $19, $31, $0F, $05, $3C, $21, $0F, $14, $38, $1A
    .byte $0F, $16, $2A, $12, $0F, $27, $19, $31, $0F, $05, $3C, $21, $0F, $14, $38, $1A

.segment "VECTORS"
    .addr nmi, reset, irq

.segment "CHR"
.repeat 16384, i
    .byte <((i * 37) ^ (i >> 4) ^ (i >> 9))
.endrepeat

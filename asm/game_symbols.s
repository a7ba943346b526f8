; Puts the game's addresses (tetris.inc) into the build's debug info, where the C++ side reads
; them: tests, the emulator harness and the game model use these names, never raw numbers.
.include "tetris.inc"

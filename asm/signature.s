; The signature of a patched ROM: lets `nestris-ai identify` say that a ROM was patched by us
; and by which build. The build id is stamped by the assembler driver after linking (CRC32 of
; every other byte of the patch).
.include "version.inc"

.segment "SIGNATURE"
.global nestris_signature, nestris_build_id   ; (read by the C++ side; asm/ai.inc: linking)
nestris_signature:
    .byte "NESTRIS-AI", 0
    .byte NESTRIS_VERSION_MAJOR, NESTRIS_VERSION_MINOR, NESTRIS_VERSION_PATCH
nestris_build_id:
    .res 4

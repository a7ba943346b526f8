; The AI's constant tables: generated from the C++ reference (piece geometry, rotation choices,
; gravity, row transitions, a row's bits and a run's neighbours, evaluation tables from
; weights.txt). Tables whose entries agree share bytes (ai-reference/ai/gen_asm_tables.cpp,
; overlapped).
.include "ai.inc"

.include "ai_tables.inc"

; The AI's background task (placeholder until the coroutine lands): yielding is a no-op.
.include "ai.inc"

.segment "AI_CODE_HI"
.proc ai_yield
    rts
.endproc

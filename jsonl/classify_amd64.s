#include "textflag.h"

// Sixteen copies of a quote, a backslash, and 0x1f.
DATA quoteBytes<>+0(SB)/8, $0x2222222222222222
DATA quoteBytes<>+8(SB)/8, $0x2222222222222222
GLOBL quoteBytes<>(SB), RODATA|NOPTR, $16
DATA slashBytes<>+0(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA slashBytes<>+8(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL slashBytes<>(SB), RODATA|NOPTR, $16
DATA lastControl<>+0(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA lastControl<>+8(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL lastControl<>(SB), RODATA|NOPTR, $16

// SIXTEEN classifies the 16 bytes at off(SI) and ORs their quote, backslash
// and control bits, shifted left by shift, into R8, R9 and R10. A byte is a
// control byte when subtracting 0x1f with unsigned saturation leaves zero.
#define SIXTEEN(off, shift) \
	MOVOU off(SI), X0; \
	MOVO  X0, X1; \
	PCMPEQB X8, X1; \
	PMOVMSKB X1, AX; \
	MOVO  X0, X2; \
	PCMPEQB X9, X2; \
	PMOVMSKB X2, BX; \
	PSUBUSB X10, X0; \
	PCMPEQB X11, X0; \
	PMOVMSKB X0, DX; \
	SHLQ $shift, AX; \
	SHLQ $shift, BX; \
	SHLQ $shift, DX; \
	ORQ  AX, R8; \
	ORQ  BX, R9; \
	ORQ  DX, R10

// func classify(src []byte, masks []uint64)
TEXT ·classify(SB), NOSPLIT, $0-48
	MOVQ src_base+0(FP), SI
	MOVQ src_len+8(FP), CX
	MOVQ masks_base+24(FP), DI
	MOVOU quoteBytes<>(SB), X8
	MOVOU slashBytes<>(SB), X9
	MOVOU lastControl<>(SB), X10
	PXOR  X11, X11
	SHRQ  $6, CX
	JZ    done

loop:
	XORQ R8, R8
	XORQ R9, R9
	XORQ R10, R10
	SIXTEEN(0, 0)
	SIXTEEN(16, 16)
	SIXTEEN(32, 32)
	SIXTEEN(48, 48)
	MOVQ R8, 0(DI)
	MOVQ R9, 8(DI)
	MOVQ R10, 16(DI)
	ADDQ $64, SI
	ADDQ $24, DI
	DECQ CX
	JNZ  loop

done:
	RET

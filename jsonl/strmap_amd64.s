#include "textflag.h"

// Thirty-two copies of a quote, a backslash, and 0x1f.
DATA quoteBytes<>+0(SB)/8, $0x2222222222222222
DATA quoteBytes<>+8(SB)/8, $0x2222222222222222
DATA quoteBytes<>+16(SB)/8, $0x2222222222222222
DATA quoteBytes<>+24(SB)/8, $0x2222222222222222
GLOBL quoteBytes<>(SB), RODATA|NOPTR, $32
DATA slashBytes<>+0(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA slashBytes<>+8(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA slashBytes<>+16(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA slashBytes<>+24(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL slashBytes<>(SB), RODATA|NOPTR, $32
DATA lastControl<>+0(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA lastControl<>+8(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA lastControl<>+16(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA lastControl<>+24(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL lastControl<>(SB), RODATA|NOPTR, $32

// A byte completes a two-byte escape (" \ / b f n r t) when the entries of
// escapeLow at its low nibble and of escapeHigh at its high nibble share a
// bit: one bit per high nibble 2, 5, 6 and 7.
DATA escapeLow<>+0(SB)/8, $0x00040008000d0000
DATA escapeLow<>+8(SB)/8, $0x0104000200000000
DATA escapeLow<>+16(SB)/8, $0x00040008000d0000
DATA escapeLow<>+24(SB)/8, $0x0104000200000000
GLOBL escapeLow<>(SB), RODATA|NOPTR, $32
DATA escapeHigh<>+0(SB)/8, $0x0804020000010000
DATA escapeHigh<>+8(SB)/8, $0x0000000000000000
DATA escapeHigh<>+16(SB)/8, $0x0804020000010000
DATA escapeHigh<>+24(SB)/8, $0x0000000000000000
GLOBL escapeHigh<>(SB), RODATA|NOPTR, $32
DATA nibbleBytes<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbleBytes<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbleBytes<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibbleBytes<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbleBytes<>(SB), RODATA|NOPTR, $32
DATA uBytes<>+0(SB)/8, $0x7575757575757575
DATA uBytes<>+8(SB)/8, $0x7575757575757575
DATA uBytes<>+16(SB)/8, $0x7575757575757575
DATA uBytes<>+24(SB)/8, $0x7575757575757575
GLOBL uBytes<>(SB), RODATA|NOPTR, $32

// MASK64(lo, hi, reg) packs the byte compares of a block's two halves into
// the 64-bit mask reg (CX is clobbered).
#define MASK64(lo, hi, reg) \
	VPMOVMSKB lo, reg; \
	VPMOVMSKB hi, CX; \
	SHLQ $32, CX; \
	ORQ  CX, reg

// ESCAPES(in, notSimple, u) finds the bytes among the 32 bytes in that do not
// complete a two-byte escape, and the letters u (Y2 and Y3 hold escapeLow and
// escapeHigh; Y6 is clobbered).
#define ESCAPES(in, notSimple, u) \
	VPSRLW   $4, in, Y6; \
	VPAND    nibbleBytes<>(SB), Y6, Y6; \
	VPSHUFB  Y6, Y3, Y6; \
	VPAND    nibbleBytes<>(SB), in, notSimple; \
	VPSHUFB  notSimple, Y2, notSimple; \
	VPAND    Y6, notSimple, notSimple; \
	VPCMPEQB Y11, notSimple, notSimple; \
	VPCMPEQB uBytes<>(SB), in, u

// func mapBlocksAVX2(src []byte, delims, unicodeEscapes []uint64, st *blockState)
//
// Registers: SI block, DI delims, R8 unicode escapes, R9 blocks left, R10
// escape carry, R11 inside carry, R12 errors (control bytes inside strings,
// bad escapes), R13 odd bits, R14 unicode escapes seen.
TEXT ·mapBlocksAVX2(SB), NOSPLIT, $0-80
	MOVQ src_base+0(FP), SI
	MOVQ src_len+8(FP), R9
	MOVQ delims_base+24(FP), DI
	MOVQ unicodeEscapes_base+48(FP), R8
	MOVQ st+72(FP), AX
	MOVQ 0(AX), R10
	MOVQ 8(AX), R11
	MOVQ 16(AX), R12
	MOVQ 24(AX), R14
	MOVQ $0xAAAAAAAAAAAAAAAA, R13
	VMOVDQU quoteBytes<>(SB), Y8
	VMOVDQU slashBytes<>(SB), Y9
	VMOVDQU lastControl<>(SB), Y10
	VPXOR   Y11, Y11, Y11
	MOVQ    $-1, AX
	VMOVQ   AX, X12
	SHRQ    $6, R9
	JZ      done

loop:
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	// Control bytes: subtracting 0x1f with unsigned saturation leaves zero.
	// They are rare (a newline per line), so the block's bytes are first
	// tested together, on the lesser byte of its two halves.
	VPMINUB  Y0, Y1, Y4
	VPSUBUSB Y10, Y4, Y4
	VPCMPEQB Y11, Y4, Y4 // Y4: not all zero when the block has one
	VPCMPEQB Y8, Y0, Y2
	VPCMPEQB Y8, Y1, Y3
	MASK64(Y2, Y3, AX) // AX: quotes
	VPCMPEQB Y9, Y0, Y2
	VPCMPEQB Y9, Y1, Y3
	MASK64(Y2, Y3, BX) // BX: backslashes
	VMOVDQU escapeLow<>(SB), Y2
	VMOVDQU escapeHigh<>(SB), Y3
	ESCAPES(Y0, Y7, Y14)
	ESCAPES(Y1, Y13, Y15)

	// Escaped bytes, as escapedBits.
	MOVQ R10, CX
	NOTQ CX
	ANDQ BX, CX        // CX: potential escapes, backslashes &^ carry
	MOVQ CX, DX
	SHLQ $1, DX
	ORQ  R13, DX
	SUBQ CX, DX
	XORQ R13, DX       // DX: codes
	MOVQ BX, CX
	ORQ  R10, CX
	XORQ DX, CX        // CX: escaped
	ANDQ BX, DX
	SHRQ $63, DX
	MOVQ DX, R10
	MOVQ CX, 0(R8)

	// Delimiters, and the bytes inside strings by a carry-less multiply
	// with all ones (a prefix xor).
	NOTQ CX
	ANDQ CX, AX
	MOVQ AX, 0(DI)
	VMOVQ AX, X6
	VPCLMULQDQ $0x00, X12, X6, X6
	VMOVQ X6, AX
	XORQ R11, AX       // AX: inside strings
	MOVQ AX, R11
	SARQ $63, R11
	VPTEST Y4, Y4
	JZ     nocontrols
	VPSUBUSB Y10, Y0, Y4
	VPCMPEQB Y11, Y4, Y4
	VPSUBUSB Y10, Y1, Y5
	VPCMPEQB Y11, Y5, Y5
	MASK64(Y4, Y5, DX) // DX: control bytes
	ANDQ AX, DX
	ORQ  DX, R12

nocontrols:

	// Escaped bytes that complete no escape are errors; \u escapes are
	// left for the caller to check.
	MASK64(Y7, Y13, DX)  // DX: bytes that complete no two-byte escape
	MOVQ 0(R8), BX       // BX: escaped
	ANDQ BX, DX
	MASK64(Y14, Y15, AX) // AX: letters u
	ANDQ BX, AX
	MOVQ AX, 0(R8)
	ORQ  AX, R14
	NOTQ AX
	ANDQ AX, DX
	ORQ  DX, R12

	ADDQ $64, SI
	ADDQ $8, DI
	ADDQ $8, R8
	DECQ R9
	JNZ  loop

done:
	MOVQ st+72(FP), AX
	MOVQ R10, 0(AX)
	MOVQ R11, 8(AX)
	MOVQ R12, 16(AX)
	MOVQ R14, 24(AX)
	VZEROUPPER
	RET

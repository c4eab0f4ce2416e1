#include "textflag.h"

// func pairBlocks(a, b []byte, c1, c2 byte, blocks int) (block int, mask uint32)
TEXT ·pairBlocks(SB), NOSPLIT, $0-76
	MOVQ    a_base+0(FP), SI
	MOVQ    b_base+24(FP), DI
	MOVQ    blocks+56(FP), CX
	VPBROADCASTB c1+48(FP), Y0
	VPBROADCASTB c2+49(FP), Y1
	XORQ    DX, DX

loop:
	CMPQ      DX, CX
	JGE       none
	VPCMPEQB  (SI), Y0, Y2
	VPCMPEQB  (DI), Y1, Y3
	VPAND     Y2, Y3, Y2
	VPMOVMSKB Y2, AX
	TESTL     AX, AX
	JNZ       found
	ADDQ      $32, SI
	ADDQ      $32, DI
	INCQ      DX
	JMP       loop

found:
	MOVQ DX, block+64(FP)
	MOVL AX, mask+72(FP)
	VZEROUPPER
	RET

none:
	MOVQ DX, block+64(FP)
	MOVL $0, mask+72(FP)
	VZEROUPPER
	RET

/* SPDX-License-Identifier: MIT */
/*
 * The source annotation language (SAL) of Windows' sal.h, as empty
 * macros: annotations only describe parameters to Microsoft's analyzer.
 *
 * The SAL 2 names (_In_, _Out_opt_, ...) start with an underscore and a
 * capital, a space no C library uses, so they are always defined.  The
 * older SAL 1 names (__in, __out, __in_ecount(n), ...) are also names
 * libstdc++ gives its own parameters: they are defined in C, and in C++
 * only in Windows-source mode, where etw_crt_prelude.h has read the
 * standard headers that use them first.  Define LIBETW_NO_SAL1 to leave
 * them out.
 */
#ifndef LIBETW_SAL_H
#define LIBETW_SAL_H

#define _In_
#define _In_opt_
#define _In_z_
#define _In_opt_z_
#define _In_reads_(n)
#define _In_reads_opt_(n)
#define _In_reads_bytes_(n)
#define _In_reads_bytes_opt_(n)
#define _In_range_(lo, hi)
#define _Out_
#define _Out_opt_
#define _Out_writes_(n)
#define _Out_writes_opt_(n)
#define _Out_writes_z_(n)
#define _Out_writes_bytes_(n)
#define _Out_writes_bytes_opt_(n)
#define _Out_writes_to_(n, c)
#define _Out_writes_bytes_to_(n, c)
#define _Out_writes_bytes_to_opt_(n, c)
#define _Out_range_(lo, hi)
#define _Inout_
#define _Inout_opt_
#define _Inout_z_
#define _Inout_updates_(n)
#define _Inout_updates_opt_(n)
#define _Inout_updates_bytes_(n)
#define _Outptr_
#define _Outptr_opt_
#define _Outptr_result_maybenull_
#define _Outptr_result_buffer_(n)
#define _Outptr_result_bytebuffer_(n)
#define _Deref_out_
#define _Deref_out_opt_
#define _Ret_
#define _Ret_maybenull_
#define _Ret_notnull_
#define _Ret_z_
#define _Ret_writes_(n)
#define _Ret_writes_bytes_(n)
#define _Result_nullonfailure_
#define _Success_(expr)
#define _Check_return_
#define _Must_inspect_result_
#define _Use_decl_annotations_
#define _Printf_format_string_
#define _Null_terminated_
#define _NullNull_terminated_
#define _Field_size_(n)
#define _Field_size_opt_(n)
#define _Field_size_bytes_(n)
#define _Field_size_bytes_opt_(n)
#define _Field_size_part_(n, c)
#define _Field_range_(lo, hi)
#define _Field_z_
#define _Frees_ptr_
#define _Frees_ptr_opt_
#define _Post_invalid_
#define _Post_z_
#define _Pre_
#define _Post_
#define _Pre_notnull_
#define _Pre_maybenull_
#define _Pre_valid_
#define _Notnull_
#define _Maybenull_
#define _Reserved_
#define _When_(expr, annos)
#define _Always_(annos)
#define _Analysis_assume_(expr)
#define _Struct_size_bytes_(n)
#define _Post_writable_byte_size_(n)
#define _Post_satisfies_(expr)
#define _Pre_satisfies_(expr)
#define _Requires_lock_held_(l)
#define _Acquires_lock_(l)
#define _Releases_lock_(l)
#define _IRQL_requires_max_(irql)
#define _IRQL_requires_(irql)
#define _Function_class_(name)
#define _Callback_
#define _Strict_type_match_
#define _Writable_bytes_(n)
#define _Writable_elements_(n)
#define _Readable_bytes_(n)
#define _Readable_elements_(n)
#define __analysis_assume(expr)

/* The SAL 1.5 forms that came between the two (count, cap, bytecount). */
#define _In_count_(n)
#define _In_opt_count_(n)
#define _In_bytecount_(n)
#define _In_opt_bytecount_(n)
#define _In_z_count_(n)
#define _Out_cap_(n)
#define _Out_opt_cap_(n)
#define _Out_bytecap_(n)
#define _Out_opt_bytecap_(n)
#define _Out_z_cap_(n)
#define _Out_cap_post_count_(n, c)
#define _Out_bytecap_post_bytecount_(n, c)
#define _Out_z_cap_post_count_(n, c)
#define _Inout_cap_(n)
#define _Inout_bytecap_(n)
#define _Inout_count_(n)
#define _Inout_bytecount_(n)
#define _Inout_z_cap_(n)
#define _Deref_out_z_
#define _Deref_out_opt_z_
#define _Deref_out_range_(lo, hi)
#define _Ret_opt_
#define _Ret_cap_(n)
#define _Ret_bytecap_(n)
#define _Printf_format_string_params_(n)

#if !defined(LIBETW_NO_SAL1) && (!defined(__cplusplus) || defined(LIBETW_ETW_CRT_PRELUDE_H))
#define __in
#define __in_opt
#define __in_z
#define __in_opt_z
#define __in_ecount(n)
#define __in_ecount_opt(n)
#define __in_bcount(n)
#define __in_bcount_opt(n)
#define __in_xcount(n)
#define __out
#define __out_opt
#define __out_z
#define __out_ecount(n)
#define __out_ecount_opt(n)
#define __out_ecount_z(n)
#define __out_ecount_part(n, c)
#define __out_ecount_part_opt(n, c)
#define __out_bcount(n)
#define __out_bcount_opt(n)
#define __out_bcount_part(n, c)
#define __out_bcount_part_opt(n, c)
#define __out_xcount(n)
#define __inout
#define __inout_opt
#define __inout_z
#define __inout_ecount(n)
#define __inout_ecount_opt(n)
#define __inout_bcount(n)
#define __inout_bcount_opt(n)
#define __deref_out
#define __deref_out_opt
#define __deref_out_ecount(n)
#define __deref_out_bcount(n)
#define __deref_inout
#define __deref_opt_out
#define __reserved
#define __nullterminated
#define __nullnullterminated
#define __field_ecount(n)
#define __field_ecount_opt(n)
#define __field_bcount(n)
#define __field_bcount_opt(n)
#define __checkReturn
#define __success(expr)
#define __callback
#define __format_string
#define __drv_maxIRQL(irql)
#define __drv_when(expr, annos)
#define __ecount(n)
#define __bcount(n)
#endif

#endif /* LIBETW_SAL_H */

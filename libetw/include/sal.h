/* SPDX-License-Identifier: MIT */
/*
 * The source annotation language (SAL) of Windows' sal.h and
 * specstrings.h, every annotation macro of it, as empty macros:
 * annotations only describe parameters to Microsoft's analyzer.
 * (__fallthrough is gcc's fallthrough attribute, so that -Wextra's
 * -Wimplicit-fallthrough takes it as Windows' analyzer does.)
 *
 * The SAL 2 names (_In_, _Out_writes_bytes_to_(n, c), _In_count_x_(n),
 * ...) start with an underscore and a capital, a space the C and C++
 * libraries here do not use, so they are always defined.  The SAL 1
 * names (__in, __out_ecount(n), ...) include names libstdc++ and glibc
 * give their own parameters (__in, __out, __pre, __valid, __success,
 * __callback, __override): they are defined in C, and in C++ only in
 * Windows-source mode, where etw_crt_prelude.h has read the standard
 * headers first and libetw's <regex>, <filesystem>, <complex>, <codecvt>
 * and <charconv> hide them around libstdc++'s (etw_std_hide.h).  Define
 * LIBETW_NO_SAL1 to leave them out.
 */
#ifndef LIBETW_SAL_H
#define LIBETW_SAL_H

/* SAL 2, and the SAL 1.5 forms (_In_count_(n), _Out_bytecap_(n), ...). */
#define _Acquires_lock_(p0)
#define _Always_(p0)
#define _Analysis_assume_(p0)
#define _Analysis_assume_nullterminated_(p0)
#define _Analysis_mode_(p0)
#define _Analysis_noreturn_
#define _At_(p0, p1)
#define _At_buffer_(p0, p1, p2, p3)
#define _COM_Outptr_
#define _COM_Outptr_opt_
#define _COM_Outptr_opt_result_maybenull_
#define _COM_Outptr_result_maybenull_
#define _Callback_
#define _Check_return_
#define _Const_
#define _Deref2_pre_readonly_
#define _Deref_in_bound_
#define _Deref_in_range_(p0, p1)
#define _Deref_inout_bound_
#define _Deref_inout_z_
#define _Deref_inout_z_bytecap_c_(p0)
#define _Deref_inout_z_cap_c_(p0)
#define _Deref_opt_out_
#define _Deref_opt_out_opt_
#define _Deref_opt_out_opt_z_
#define _Deref_opt_out_z_
#define _Deref_out_
#define _Deref_out_bound_
#define _Deref_out_opt_
#define _Deref_out_opt_z_
#define _Deref_out_range_(p0, p1)
#define _Deref_out_z_
#define _Deref_out_z_bytecap_c_(p0)
#define _Deref_out_z_cap_c_(p0)
#define _Deref_post_bytecap_(p0)
#define _Deref_post_bytecap_c_(p0)
#define _Deref_post_bytecap_x_(p0)
#define _Deref_post_bytecount_(p0)
#define _Deref_post_bytecount_c_(p0)
#define _Deref_post_bytecount_x_(p0)
#define _Deref_post_cap_(p0)
#define _Deref_post_cap_c_(p0)
#define _Deref_post_cap_x_(p0)
#define _Deref_post_count_(p0)
#define _Deref_post_count_c_(p0)
#define _Deref_post_count_x_(p0)
#define _Deref_post_maybenull_
#define _Deref_post_notnull_
#define _Deref_post_null_
#define _Deref_post_opt_bytecap_(p0)
#define _Deref_post_opt_bytecap_c_(p0)
#define _Deref_post_opt_bytecap_x_(p0)
#define _Deref_post_opt_bytecount_(p0)
#define _Deref_post_opt_bytecount_c_(p0)
#define _Deref_post_opt_bytecount_x_(p0)
#define _Deref_post_opt_cap_(p0)
#define _Deref_post_opt_cap_c_(p0)
#define _Deref_post_opt_cap_x_(p0)
#define _Deref_post_opt_count_(p0)
#define _Deref_post_opt_count_c_(p0)
#define _Deref_post_opt_count_x_(p0)
#define _Deref_post_opt_valid_
#define _Deref_post_opt_valid_bytecap_(p0)
#define _Deref_post_opt_valid_bytecap_c_(p0)
#define _Deref_post_opt_valid_bytecap_x_(p0)
#define _Deref_post_opt_valid_cap_(p0)
#define _Deref_post_opt_valid_cap_c_(p0)
#define _Deref_post_opt_valid_cap_x_(p0)
#define _Deref_post_opt_z_
#define _Deref_post_opt_z_bytecap_(p0)
#define _Deref_post_opt_z_bytecap_c_(p0)
#define _Deref_post_opt_z_bytecap_x_(p0)
#define _Deref_post_opt_z_cap_(p0)
#define _Deref_post_opt_z_cap_c_(p0)
#define _Deref_post_opt_z_cap_x_(p0)
#define _Deref_post_valid_
#define _Deref_post_valid_bytecap_(p0)
#define _Deref_post_valid_bytecap_c_(p0)
#define _Deref_post_valid_bytecap_x_(p0)
#define _Deref_post_valid_cap_(p0)
#define _Deref_post_valid_cap_c_(p0)
#define _Deref_post_valid_cap_x_(p0)
#define _Deref_post_z_
#define _Deref_post_z_bytecap_(p0)
#define _Deref_post_z_bytecap_c_(p0)
#define _Deref_post_z_bytecap_x_(p0)
#define _Deref_post_z_cap_(p0)
#define _Deref_post_z_cap_c_(p0)
#define _Deref_post_z_cap_x_(p0)
#define _Deref_pre_bytecap_(p0)
#define _Deref_pre_bytecap_c_(p0)
#define _Deref_pre_bytecap_x_(p0)
#define _Deref_pre_bytecount_(p0)
#define _Deref_pre_bytecount_c_(p0)
#define _Deref_pre_bytecount_x_(p0)
#define _Deref_pre_cap_(p0)
#define _Deref_pre_cap_c_(p0)
#define _Deref_pre_cap_x_(p0)
#define _Deref_pre_count_(p0)
#define _Deref_pre_count_c_(p0)
#define _Deref_pre_count_x_(p0)
#define _Deref_pre_invalid_
#define _Deref_pre_maybenull_
#define _Deref_pre_notnull_
#define _Deref_pre_null_
#define _Deref_pre_opt_bytecap_(p0)
#define _Deref_pre_opt_bytecap_c_(p0)
#define _Deref_pre_opt_bytecap_x_(p0)
#define _Deref_pre_opt_bytecount_(p0)
#define _Deref_pre_opt_bytecount_c_(p0)
#define _Deref_pre_opt_bytecount_x_(p0)
#define _Deref_pre_opt_cap_(p0)
#define _Deref_pre_opt_cap_c_(p0)
#define _Deref_pre_opt_cap_x_(p0)
#define _Deref_pre_opt_count_(p0)
#define _Deref_pre_opt_count_c_(p0)
#define _Deref_pre_opt_count_x_(p0)
#define _Deref_pre_opt_valid_
#define _Deref_pre_opt_valid_bytecap_(p0)
#define _Deref_pre_opt_valid_bytecap_c_(p0)
#define _Deref_pre_opt_valid_bytecap_x_(p0)
#define _Deref_pre_opt_valid_cap_(p0)
#define _Deref_pre_opt_valid_cap_c_(p0)
#define _Deref_pre_opt_valid_cap_x_(p0)
#define _Deref_pre_opt_z_
#define _Deref_pre_opt_z_bytecap_(p0)
#define _Deref_pre_opt_z_bytecap_c_(p0)
#define _Deref_pre_opt_z_bytecap_x_(p0)
#define _Deref_pre_opt_z_cap_(p0)
#define _Deref_pre_opt_z_cap_c_(p0)
#define _Deref_pre_opt_z_cap_x_(p0)
#define _Deref_pre_readonly_
#define _Deref_pre_valid_
#define _Deref_pre_valid_bytecap_(p0)
#define _Deref_pre_valid_bytecap_c_(p0)
#define _Deref_pre_valid_bytecap_x_(p0)
#define _Deref_pre_valid_cap_(p0)
#define _Deref_pre_valid_cap_c_(p0)
#define _Deref_pre_valid_cap_x_(p0)
#define _Deref_pre_writeonly_
#define _Deref_pre_z_
#define _Deref_pre_z_bytecap_(p0)
#define _Deref_pre_z_bytecap_c_(p0)
#define _Deref_pre_z_bytecap_x_(p0)
#define _Deref_pre_z_cap_(p0)
#define _Deref_pre_z_cap_c_(p0)
#define _Deref_pre_z_cap_x_(p0)
#define _Deref_prepost_bytecap_(p0)
#define _Deref_prepost_bytecap_x_(p0)
#define _Deref_prepost_bytecount_(p0)
#define _Deref_prepost_bytecount_x_(p0)
#define _Deref_prepost_cap_(p0)
#define _Deref_prepost_cap_x_(p0)
#define _Deref_prepost_count_(p0)
#define _Deref_prepost_count_x_(p0)
#define _Deref_prepost_opt_bytecap_(p0)
#define _Deref_prepost_opt_bytecap_x_(p0)
#define _Deref_prepost_opt_bytecount_(p0)
#define _Deref_prepost_opt_bytecount_x_(p0)
#define _Deref_prepost_opt_cap_(p0)
#define _Deref_prepost_opt_cap_x_(p0)
#define _Deref_prepost_opt_count_(p0)
#define _Deref_prepost_opt_count_x_(p0)
#define _Deref_prepost_opt_valid_
#define _Deref_prepost_opt_valid_bytecap_(p0)
#define _Deref_prepost_opt_valid_bytecap_x_(p0)
#define _Deref_prepost_opt_valid_cap_(p0)
#define _Deref_prepost_opt_valid_cap_x_(p0)
#define _Deref_prepost_opt_z_
#define _Deref_prepost_opt_z_bytecap_(p0)
#define _Deref_prepost_opt_z_cap_(p0)
#define _Deref_prepost_valid_
#define _Deref_prepost_valid_bytecap_(p0)
#define _Deref_prepost_valid_bytecap_x_(p0)
#define _Deref_prepost_valid_cap_(p0)
#define _Deref_prepost_valid_cap_x_(p0)
#define _Deref_prepost_z_
#define _Deref_prepost_z_bytecap_(p0)
#define _Deref_prepost_z_cap_(p0)
#define _Deref_ret_bound_
#define _Deref_ret_opt_z_
#define _Deref_ret_range_(p0, p1)
#define _Deref_ret_z_
#define _Enum_is_bitflag_
#define _Field_range_(p0, p1)
#define _Field_size_(p0)
#define _Field_size_bytes_(p0)
#define _Field_size_bytes_full_(p0)
#define _Field_size_bytes_full_opt_(p0)
#define _Field_size_bytes_opt_(p0)
#define _Field_size_bytes_part_(p0, p1)
#define _Field_size_bytes_part_opt_(p0, p1)
#define _Field_size_full_(p0)
#define _Field_size_full_opt_(p0)
#define _Field_size_opt_(p0)
#define _Field_size_part_(p0, p1)
#define _Field_size_part_opt_(p0, p1)
#define _Field_z_
#define _Frees_ptr_
#define _Frees_ptr_opt_
#define _Function_class_(p0)
#define _GrouP_(p0)
#define _Group_(p0)
#define _IRQL_requires_(p0)
#define _IRQL_requires_max_(p0)
#define _In_
#define _In_bound_
#define _In_bytecount_(p0)
#define _In_bytecount_c_(p0)
#define _In_bytecount_x_(p0)
#define _In_count_(p0)
#define _In_count_c_(p0)
#define _In_count_x_(p0)
#define _In_defensive_(p0)
#define _In_function_class_(p0)
#define _In_opt_
#define _In_opt_bytecount_(p0)
#define _In_opt_bytecount_c_(p0)
#define _In_opt_bytecount_x_(p0)
#define _In_opt_count_(p0)
#define _In_opt_count_c_(p0)
#define _In_opt_count_x_(p0)
#define _In_opt_ptrdiff_count_(p0)
#define _In_opt_z_
#define _In_opt_z_bytecount_(p0)
#define _In_opt_z_bytecount_c_(p0)
#define _In_opt_z_count_(p0)
#define _In_opt_z_count_c_(p0)
#define _In_ptrdiff_count_(p0)
#define _In_range_(p0, p1)
#define _In_reads_(p0)
#define _In_reads_bytes_(p0)
#define _In_reads_bytes_opt_(p0)
#define _In_reads_opt_(p0)
#define _In_reads_opt_z_(p0)
#define _In_reads_or_z_(p0)
#define _In_reads_or_z_opt_(p0)
#define _In_reads_to_ptr_(p0)
#define _In_reads_to_ptr_opt_(p0)
#define _In_reads_to_ptr_opt_z_(p0)
#define _In_reads_to_ptr_z_(p0)
#define _In_reads_z_(p0)
#define _In_z_
#define _In_z_bytecount_(p0)
#define _In_z_bytecount_c_(p0)
#define _In_z_count_(p0)
#define _In_z_count_c_(p0)
#define _Inout_
#define _Inout_bytecap_(p0)
#define _Inout_bytecap_c_(p0)
#define _Inout_bytecap_x_(p0)
#define _Inout_bytecount_(p0)
#define _Inout_bytecount_c_(p0)
#define _Inout_bytecount_x_(p0)
#define _Inout_cap_(p0)
#define _Inout_cap_c_(p0)
#define _Inout_cap_x_(p0)
#define _Inout_count_(p0)
#define _Inout_count_c_(p0)
#define _Inout_count_x_(p0)
#define _Inout_defensive_(p0)
#define _Inout_opt_
#define _Inout_opt_bytecap_(p0)
#define _Inout_opt_bytecap_c_(p0)
#define _Inout_opt_bytecap_x_(p0)
#define _Inout_opt_bytecount_(p0)
#define _Inout_opt_bytecount_c_(p0)
#define _Inout_opt_bytecount_x_(p0)
#define _Inout_opt_cap_(p0)
#define _Inout_opt_cap_c_(p0)
#define _Inout_opt_cap_x_(p0)
#define _Inout_opt_count_(p0)
#define _Inout_opt_count_c_(p0)
#define _Inout_opt_count_x_(p0)
#define _Inout_opt_ptrdiff_count_(p0)
#define _Inout_opt_z_
#define _Inout_opt_z_bytecap_(p0)
#define _Inout_opt_z_bytecap_c_(p0)
#define _Inout_opt_z_bytecap_x_(p0)
#define _Inout_opt_z_bytecount_(p0)
#define _Inout_opt_z_bytecount_c_(p0)
#define _Inout_opt_z_cap_(p0)
#define _Inout_opt_z_cap_c_(p0)
#define _Inout_opt_z_cap_x_(p0)
#define _Inout_opt_z_count_(p0)
#define _Inout_opt_z_count_c_(p0)
#define _Inout_ptrdiff_count_(p0)
#define _Inout_updates_(p0)
#define _Inout_updates_all_(p0)
#define _Inout_updates_all_opt_(p0)
#define _Inout_updates_bytes_(p0)
#define _Inout_updates_bytes_all_(p0)
#define _Inout_updates_bytes_all_opt_(p0)
#define _Inout_updates_bytes_opt_(p0)
#define _Inout_updates_bytes_to_(p0, p1)
#define _Inout_updates_bytes_to_opt_(p0, p1)
#define _Inout_updates_opt_(p0)
#define _Inout_updates_opt_z_(p0)
#define _Inout_updates_to_(p0, p1)
#define _Inout_updates_to_opt_(p0, p1)
#define _Inout_updates_z_(p0)
#define _Inout_z_
#define _Inout_z_bytecap_(p0)
#define _Inout_z_bytecap_c_(p0)
#define _Inout_z_bytecap_x_(p0)
#define _Inout_z_bytecount_(p0)
#define _Inout_z_bytecount_c_(p0)
#define _Inout_z_cap_(p0)
#define _Inout_z_cap_c_(p0)
#define _Inout_z_cap_x_(p0)
#define _Inout_z_count_(p0)
#define _Inout_z_count_c_(p0)
#define _Literal_
#define _Maybe_raises_SEH_exception_
#define _Maybenull_
#define _Maybevalid_
#define _Must_inspect_result_
#define _Notliteral_
#define _Notnull_
#define _Notref_
#define _Notvalid_
#define _NullNull_terminated_
#define _Null_
#define _Null_terminated_
#define _On_failure_(p0)
#define _Out_
#define _Out_bound_
#define _Out_bytecap_(p0)
#define _Out_bytecap_c_(p0)
#define _Out_bytecap_post_bytecount_(p0, p1)
#define _Out_bytecap_x_(p0)
#define _Out_bytecapcount_(p0)
#define _Out_bytecapcount_x_(p0)
#define _Out_cap_(p0)
#define _Out_cap_c_(p0)
#define _Out_cap_m_(p0, p1)
#define _Out_cap_post_count_(p0, p1)
#define _Out_cap_x_(p0)
#define _Out_capcount_(p0)
#define _Out_capcount_x_(p0)
#define _Out_defensive_(p0)
#define _Out_opt_
#define _Out_opt_bytecap_(p0)
#define _Out_opt_bytecap_c_(p0)
#define _Out_opt_bytecap_post_bytecount_(p0, p1)
#define _Out_opt_bytecap_x_(p0)
#define _Out_opt_bytecapcount_(p0)
#define _Out_opt_bytecapcount_x_(p0)
#define _Out_opt_cap_(p0)
#define _Out_opt_cap_c_(p0)
#define _Out_opt_cap_m_(p0, p1)
#define _Out_opt_cap_post_count_(p0, p1)
#define _Out_opt_cap_x_(p0)
#define _Out_opt_capcount_(p0)
#define _Out_opt_capcount_x_(p0)
#define _Out_opt_ptrdiff_cap_(p0)
#define _Out_opt_z_bytecap_(p0)
#define _Out_opt_z_bytecap_c_(p0)
#define _Out_opt_z_bytecap_post_bytecount_(p0, p1)
#define _Out_opt_z_bytecap_x_(p0)
#define _Out_opt_z_bytecapcount_(p0)
#define _Out_opt_z_cap_(p0)
#define _Out_opt_z_cap_c_(p0)
#define _Out_opt_z_cap_m_(p0, p1)
#define _Out_opt_z_cap_post_count_(p0, p1)
#define _Out_opt_z_cap_x_(p0)
#define _Out_opt_z_capcount_(p0)
#define _Out_ptrdiff_cap_(p0)
#define _Out_range_(p0, p1)
#define _Out_writes_(p0)
#define _Out_writes_all_(p0)
#define _Out_writes_all_opt_(p0)
#define _Out_writes_bytes_(p0)
#define _Out_writes_bytes_all_(p0)
#define _Out_writes_bytes_all_opt_(p0)
#define _Out_writes_bytes_opt_(p0)
#define _Out_writes_bytes_to_(p0, p1)
#define _Out_writes_bytes_to_opt_(p0, p1)
#define _Out_writes_opt_(p0)
#define _Out_writes_opt_z_(p0)
#define _Out_writes_to_(p0, p1)
#define _Out_writes_to_opt_(p0, p1)
#define _Out_writes_to_ptr_(p0)
#define _Out_writes_to_ptr_opt_(p0)
#define _Out_writes_to_ptr_opt_z_(p0)
#define _Out_writes_to_ptr_z_(p0)
#define _Out_writes_z_(p0)
#define _Out_z_bytecap_(p0)
#define _Out_z_bytecap_c_(p0)
#define _Out_z_bytecap_post_bytecount_(p0, p1)
#define _Out_z_bytecap_x_(p0)
#define _Out_z_bytecapcount_(p0)
#define _Out_z_cap_(p0)
#define _Out_z_cap_c_(p0)
#define _Out_z_cap_m_(p0, p1)
#define _Out_z_cap_post_count_(p0, p1)
#define _Out_z_cap_x_(p0)
#define _Out_z_capcount_(p0)
#define _Outptr_
#define _Outptr_opt_
#define _Outptr_opt_result_buffer_(p0)
#define _Outptr_opt_result_buffer_all_(p0)
#define _Outptr_opt_result_buffer_all_maybenull_(p0)
#define _Outptr_opt_result_buffer_maybenull_(p0)
#define _Outptr_opt_result_buffer_to_(p0, p1)
#define _Outptr_opt_result_buffer_to_maybenull_(p0, p1)
#define _Outptr_opt_result_bytebuffer_(p0)
#define _Outptr_opt_result_bytebuffer_all_(p0)
#define _Outptr_opt_result_bytebuffer_all_maybenull_(p0)
#define _Outptr_opt_result_bytebuffer_maybenull_(p0)
#define _Outptr_opt_result_bytebuffer_to_(p0, p1)
#define _Outptr_opt_result_bytebuffer_to_maybenull_(p0, p1)
#define _Outptr_opt_result_maybenull_
#define _Outptr_opt_result_maybenull_z_
#define _Outptr_opt_result_nullonfailure_
#define _Outptr_opt_result_z_
#define _Outptr_result_buffer_(p0)
#define _Outptr_result_buffer_all_(p0)
#define _Outptr_result_buffer_all_maybenull_(p0)
#define _Outptr_result_buffer_maybenull_(p0)
#define _Outptr_result_buffer_to_(p0, p1)
#define _Outptr_result_buffer_to_maybenull_(p0, p1)
#define _Outptr_result_bytebuffer_(p0)
#define _Outptr_result_bytebuffer_all_(p0)
#define _Outptr_result_bytebuffer_all_maybenull_(p0)
#define _Outptr_result_bytebuffer_maybenull_(p0)
#define _Outptr_result_bytebuffer_to_(p0, p1)
#define _Outptr_result_bytebuffer_to_maybenull_(p0, p1)
#define _Outptr_result_maybenull_
#define _Outptr_result_maybenull_z_
#define _Outptr_result_nullonfailure_
#define _Outptr_result_z_
#define _Outref_
#define _Outref_result_buffer_(p0)
#define _Outref_result_buffer_all_(p0)
#define _Outref_result_buffer_all_maybenull_(p0)
#define _Outref_result_buffer_maybenull_(p0)
#define _Outref_result_buffer_to_(p0, p1)
#define _Outref_result_buffer_to_maybenull_(p0, p1)
#define _Outref_result_bytebuffer_(p0)
#define _Outref_result_bytebuffer_all_(p0)
#define _Outref_result_bytebuffer_all_maybenull_(p0)
#define _Outref_result_bytebuffer_maybenull_(p0)
#define _Outref_result_bytebuffer_to_(p0, p1)
#define _Outref_result_bytebuffer_to_maybenull_(p0, p1)
#define _Outref_result_maybenull_
#define _Outref_result_nullonfailure_
#define _Points_to_data_
#define _Post_
#define _Post_bytecap_(p0)
#define _Post_bytecount_(p0)
#define _Post_bytecount_c_(p0)
#define _Post_bytecount_x_(p0)
#define _Post_cap_(p0)
#define _Post_count_(p0)
#define _Post_count_c_(p0)
#define _Post_count_x_(p0)
#define _Post_defensive_
#define _Post_equal_to_(p0)
#define _Post_invalid_
#define _Post_maybenull_
#define _Post_maybez_
#define _Post_notnull_
#define _Post_null_
#define _Post_ptr_invalid_
#define _Post_readable_byte_size_(p0)
#define _Post_readable_size_(p0)
#define _Post_satisfies_(p0)
#define _Post_valid_
#define _Post_writable_byte_size_(p0)
#define _Post_writable_size_(p0)
#define _Post_z_
#define _Post_z_bytecount_(p0)
#define _Post_z_bytecount_c_(p0)
#define _Post_z_bytecount_x_(p0)
#define _Post_z_count_(p0)
#define _Post_z_count_c_(p0)
#define _Post_z_count_x_(p0)
#define _Pre_
#define _Pre_bytecap_(p0)
#define _Pre_bytecap_c_(p0)
#define _Pre_bytecap_x_(p0)
#define _Pre_bytecount_(p0)
#define _Pre_bytecount_c_(p0)
#define _Pre_bytecount_x_(p0)
#define _Pre_cap_(p0)
#define _Pre_cap_c_(p0)
#define _Pre_cap_c_one_
#define _Pre_cap_for_(p0)
#define _Pre_cap_m_(p0, p1)
#define _Pre_cap_x_(p0)
#define _Pre_count_(p0)
#define _Pre_count_c_(p0)
#define _Pre_count_x_(p0)
#define _Pre_defensive_
#define _Pre_equal_to_(p0)
#define _Pre_invalid_
#define _Pre_maybenull_
#define _Pre_notnull_
#define _Pre_null_
#define _Pre_opt_bytecap_(p0)
#define _Pre_opt_bytecap_c_(p0)
#define _Pre_opt_bytecap_x_(p0)
#define _Pre_opt_bytecount_(p0)
#define _Pre_opt_bytecount_c_(p0)
#define _Pre_opt_bytecount_x_(p0)
#define _Pre_opt_cap_(p0)
#define _Pre_opt_cap_c_(p0)
#define _Pre_opt_cap_c_one_
#define _Pre_opt_cap_for_(p0)
#define _Pre_opt_cap_m_(p0, p1)
#define _Pre_opt_cap_x_(p0)
#define _Pre_opt_count_(p0)
#define _Pre_opt_count_c_(p0)
#define _Pre_opt_count_x_(p0)
#define _Pre_opt_ptrdiff_cap_(p0)
#define _Pre_opt_ptrdiff_count_(p0)
#define _Pre_opt_valid_
#define _Pre_opt_valid_bytecap_(p0)
#define _Pre_opt_valid_bytecap_c_(p0)
#define _Pre_opt_valid_bytecap_x_(p0)
#define _Pre_opt_valid_cap_(p0)
#define _Pre_opt_valid_cap_c_(p0)
#define _Pre_opt_valid_cap_x_(p0)
#define _Pre_opt_z_
#define _Pre_opt_z_bytecap_(p0)
#define _Pre_opt_z_bytecap_c_(p0)
#define _Pre_opt_z_bytecap_x_(p0)
#define _Pre_opt_z_cap_(p0)
#define _Pre_opt_z_cap_c_(p0)
#define _Pre_opt_z_cap_x_(p0)
#define _Pre_ptrdiff_cap_(p0)
#define _Pre_ptrdiff_count_(p0)
#define _Pre_readable_byte_size_(p0)
#define _Pre_readable_size_(p0)
#define _Pre_readonly_
#define _Pre_satisfies_(p0)
#define _Pre_unknown_
#define _Pre_valid_
#define _Pre_valid_bytecap_(p0)
#define _Pre_valid_bytecap_c_(p0)
#define _Pre_valid_bytecap_x_(p0)
#define _Pre_valid_cap_(p0)
#define _Pre_valid_cap_c_(p0)
#define _Pre_valid_cap_x_(p0)
#define _Pre_writable_byte_size_(p0)
#define _Pre_writable_size_(p0)
#define _Pre_writeonly_
#define _Pre_z_
#define _Pre_z_bytecap_(p0)
#define _Pre_z_bytecap_c_(p0)
#define _Pre_z_bytecap_x_(p0)
#define _Pre_z_cap_(p0)
#define _Pre_z_cap_c_(p0)
#define _Pre_z_cap_x_(p0)
#define _Prepost_bytecount_(p0)
#define _Prepost_bytecount_c_(p0)
#define _Prepost_bytecount_x_(p0)
#define _Prepost_count_(p0)
#define _Prepost_count_c_(p0)
#define _Prepost_count_x_(p0)
#define _Prepost_opt_bytecount_(p0)
#define _Prepost_opt_bytecount_c_(p0)
#define _Prepost_opt_bytecount_x_(p0)
#define _Prepost_opt_count_(p0)
#define _Prepost_opt_count_c_(p0)
#define _Prepost_opt_count_x_(p0)
#define _Prepost_opt_valid_
#define _Prepost_opt_z_
#define _Prepost_valid_
#define _Prepost_z_
#define _Printf_format_string_
#define _Printf_format_string_params_(p0)
#define _Raises_SEH_exception_
#define _Readable_bytes_(p0)
#define _Readable_elements_(p0)
#define _Releases_lock_(p0)
#define _Requires_lock_held_(p0)
#define _Reserved_
#define _Result_nullonfailure_
#define _Result_zeroonfailure_
#define _Ret_
#define _Ret_bound_
#define _Ret_bytecap_(p0)
#define _Ret_bytecap_c_(p0)
#define _Ret_bytecap_x_(p0)
#define _Ret_bytecount_(p0)
#define _Ret_bytecount_c_(p0)
#define _Ret_bytecount_x_(p0)
#define _Ret_cap_(p0)
#define _Ret_cap_c_(p0)
#define _Ret_cap_x_(p0)
#define _Ret_count_(p0)
#define _Ret_count_c_(p0)
#define _Ret_count_x_(p0)
#define _Ret_maybenull_
#define _Ret_maybenull_z_
#define _Ret_notnull_
#define _Ret_null_
#define _Ret_opt_
#define _Ret_opt_bytecap_(p0)
#define _Ret_opt_bytecap_c_(p0)
#define _Ret_opt_bytecap_x_(p0)
#define _Ret_opt_bytecount_(p0)
#define _Ret_opt_bytecount_c_(p0)
#define _Ret_opt_bytecount_x_(p0)
#define _Ret_opt_cap_(p0)
#define _Ret_opt_cap_c_(p0)
#define _Ret_opt_cap_x_(p0)
#define _Ret_opt_count_(p0)
#define _Ret_opt_count_c_(p0)
#define _Ret_opt_count_x_(p0)
#define _Ret_opt_valid_
#define _Ret_opt_z_
#define _Ret_opt_z_bytecap_(p0)
#define _Ret_opt_z_bytecount_(p0)
#define _Ret_opt_z_cap_(p0)
#define _Ret_opt_z_count_(p0)
#define _Ret_range_(p0, p1)
#define _Ret_valid_
#define _Ret_writes_(p0)
#define _Ret_writes_bytes_(p0)
#define _Ret_writes_bytes_maybenull_(p0)
#define _Ret_writes_bytes_to_(p0, p1)
#define _Ret_writes_bytes_to_maybenull_(p0, p1)
#define _Ret_writes_maybenull_(p0)
#define _Ret_writes_maybenull_z_(p0)
#define _Ret_writes_to_(p0, p1)
#define _Ret_writes_to_maybenull_(p0, p1)
#define _Ret_writes_z_(p0)
#define _Ret_z_
#define _Ret_z_bytecap_(p0)
#define _Ret_z_bytecount_(p0)
#define _Ret_z_cap_(p0)
#define _Ret_z_count_(p0)
#define _Return_type_success_(p0)
#define _Scanf_format_string_
#define _Scanf_format_string_params_(p0)
#define _Scanf_s_format_string_
#define _Scanf_s_format_string_params_(p0)
#define _Strict_type_match_
#define _Struct_size_bytes_(p0)
#define _Success_(p0)
#define _Unchanged_(p0)
#define _Use_decl_annotations_
#define _Valid_
#define _When_(p0, p1)
#define _Writable_bytes_(p0)
#define _Writable_elements_(p0)

/* SAL 1. */
#if !defined(LIBETW_NO_SAL1) && (!defined(__cplusplus) || defined(LIBETW_ETW_CRT_PRELUDE_H))
#define __fallthrough __attribute__((__fallthrough__))
#define __analysis_assume(p0)
#define __bcount(p0)
#define __bcount_opt(p0)
#define __blocksOn(p0)
#define __byte_readableTo(p0)
#define __byte_writableTo(p0)
#define __callback
#define __checkReturn
#define __control_entrypoint(p0)
#define __data_entrypoint(p0)
#define __deref
#define __deref_bcount(p0)
#define __deref_bcount_opt(p0)
#define __deref_ecount(p0)
#define __deref_ecount_opt(p0)
#define __deref_inout
#define __deref_inout_bcount(p0)
#define __deref_inout_bcount_full(p0)
#define __deref_inout_bcount_full_opt(p0)
#define __deref_inout_bcount_nz(p0)
#define __deref_inout_bcount_nz_opt(p0)
#define __deref_inout_bcount_opt(p0)
#define __deref_inout_bcount_part(p0, p1)
#define __deref_inout_bcount_part_opt(p0, p1)
#define __deref_inout_bcount_z(p0)
#define __deref_inout_bcount_z_opt(p0)
#define __deref_inout_ecount(p0)
#define __deref_inout_ecount_full(p0)
#define __deref_inout_ecount_full_opt(p0)
#define __deref_inout_ecount_nz(p0)
#define __deref_inout_ecount_nz_opt(p0)
#define __deref_inout_ecount_opt(p0)
#define __deref_inout_ecount_part(p0, p1)
#define __deref_inout_ecount_part_opt(p0, p1)
#define __deref_inout_ecount_z(p0)
#define __deref_inout_ecount_z_opt(p0)
#define __deref_inout_nz
#define __deref_inout_nz_opt
#define __deref_inout_opt
#define __deref_inout_z
#define __deref_inout_z_opt
#define __deref_opt_bcount(p0)
#define __deref_opt_bcount_opt(p0)
#define __deref_opt_ecount(p0)
#define __deref_opt_ecount_opt(p0)
#define __deref_opt_inout
#define __deref_opt_inout_bcount(p0)
#define __deref_opt_inout_bcount_full(p0)
#define __deref_opt_inout_bcount_full_opt(p0)
#define __deref_opt_inout_bcount_nz(p0)
#define __deref_opt_inout_bcount_nz_opt(p0)
#define __deref_opt_inout_bcount_opt(p0)
#define __deref_opt_inout_bcount_part(p0, p1)
#define __deref_opt_inout_bcount_part_opt(p0, p1)
#define __deref_opt_inout_bcount_z(p0)
#define __deref_opt_inout_bcount_z_opt(p0)
#define __deref_opt_inout_ecount(p0)
#define __deref_opt_inout_ecount_full(p0)
#define __deref_opt_inout_ecount_full_opt(p0)
#define __deref_opt_inout_ecount_nz(p0)
#define __deref_opt_inout_ecount_nz_opt(p0)
#define __deref_opt_inout_ecount_opt(p0)
#define __deref_opt_inout_ecount_part(p0, p1)
#define __deref_opt_inout_ecount_part_opt(p0, p1)
#define __deref_opt_inout_ecount_z(p0)
#define __deref_opt_inout_ecount_z_opt(p0)
#define __deref_opt_inout_nz
#define __deref_opt_inout_nz_opt
#define __deref_opt_inout_opt
#define __deref_opt_inout_z
#define __deref_opt_inout_z_opt
#define __deref_opt_out
#define __deref_opt_out_bcount(p0)
#define __deref_opt_out_bcount_full(p0)
#define __deref_opt_out_bcount_full_opt(p0)
#define __deref_opt_out_bcount_nz_opt(p0)
#define __deref_opt_out_bcount_opt(p0)
#define __deref_opt_out_bcount_part(p0, p1)
#define __deref_opt_out_bcount_part_opt(p0, p1)
#define __deref_opt_out_bcount_z_opt(p0)
#define __deref_opt_out_ecount(p0)
#define __deref_opt_out_ecount_full(p0)
#define __deref_opt_out_ecount_full_opt(p0)
#define __deref_opt_out_ecount_nz_opt(p0)
#define __deref_opt_out_ecount_opt(p0)
#define __deref_opt_out_ecount_part(p0, p1)
#define __deref_opt_out_ecount_part_opt(p0, p1)
#define __deref_opt_out_ecount_z_opt(p0)
#define __deref_opt_out_nz_opt
#define __deref_opt_out_opt
#define __deref_opt_out_z
#define __deref_opt_out_z_opt
#define __deref_out
#define __deref_out_bcount(p0)
#define __deref_out_bcount_full(p0)
#define __deref_out_bcount_full_opt(p0)
#define __deref_out_bcount_nz(p0)
#define __deref_out_bcount_nz_opt(p0)
#define __deref_out_bcount_opt(p0)
#define __deref_out_bcount_part(p0, p1)
#define __deref_out_bcount_part_opt(p0, p1)
#define __deref_out_bcount_z(p0)
#define __deref_out_bcount_z_opt(p0)
#define __deref_out_ecount(p0)
#define __deref_out_ecount_full(p0)
#define __deref_out_ecount_full_opt(p0)
#define __deref_out_ecount_nz(p0)
#define __deref_out_ecount_nz_opt(p0)
#define __deref_out_ecount_opt(p0)
#define __deref_out_ecount_part(p0, p1)
#define __deref_out_ecount_part_opt(p0, p1)
#define __deref_out_ecount_z(p0)
#define __deref_out_ecount_z_opt(p0)
#define __deref_out_nz
#define __deref_out_nz_opt
#define __deref_out_opt
#define __deref_out_z
#define __deref_out_z_opt
#define __drv_maxIRQL(p0)
#define __drv_when(p0, p1)
#define __ecount(p0)
#define __ecount_opt(p0)
#define __elem_readableTo(p0)
#define __elem_writableTo(p0)
#define __exceptthat
#define __field_bcount(p0)
#define __field_bcount_opt(p0)
#define __field_ecount(p0)
#define __field_ecount_opt(p0)
#define __format_string
#define __in
#define __in_bcount(p0)
#define __in_bcount_nz(p0)
#define __in_bcount_nz_opt(p0)
#define __in_bcount_opt(p0)
#define __in_bcount_z(p0)
#define __in_bcount_z_opt(p0)
#define __in_ecount(p0)
#define __in_ecount_nz(p0)
#define __in_ecount_nz_opt(p0)
#define __in_ecount_opt(p0)
#define __in_ecount_z(p0)
#define __in_ecount_z_opt(p0)
#define __in_nz
#define __in_nz_opt
#define __in_opt
#define __in_opt_z
#define __in_xcount(p0)
#define __in_z
#define __in_z_opt
#define __inexpressible_readableTo(p0)
#define __inexpressible_writableTo(p0)
#define __inout
#define __inout_bcount(p0)
#define __inout_bcount_full(p0)
#define __inout_bcount_full_opt(p0)
#define __inout_bcount_nz(p0)
#define __inout_bcount_nz_opt(p0)
#define __inout_bcount_opt(p0)
#define __inout_bcount_part(p0, p1)
#define __inout_bcount_part_opt(p0, p1)
#define __inout_bcount_z(p0)
#define __inout_bcount_z_opt(p0)
#define __inout_ecount(p0)
#define __inout_ecount_full(p0)
#define __inout_ecount_full_opt(p0)
#define __inout_ecount_nz(p0)
#define __inout_ecount_nz_opt(p0)
#define __inout_ecount_opt(p0)
#define __inout_ecount_part(p0, p1)
#define __inout_ecount_part_opt(p0, p1)
#define __inout_ecount_z(p0)
#define __inout_ecount_z_opt(p0)
#define __inout_nz
#define __inout_nz_opt
#define __inout_opt
#define __inout_z
#define __inout_z_opt
#define __maybenull
#define __maybereadonly
#define __maybevalid
#define __nothrow
#define __notnull
#define __notreadonly
#define __notvalid
#define __nullnullterminated
#define __nullterminated
#define __on_failure(p0)
#define __out
#define __out_bcount(p0)
#define __out_bcount_full(p0)
#define __out_bcount_full_opt(p0)
#define __out_bcount_full_z(p0)
#define __out_bcount_full_z_opt(p0)
#define __out_bcount_nz(p0)
#define __out_bcount_nz_opt(p0)
#define __out_bcount_opt(p0)
#define __out_bcount_part(p0, p1)
#define __out_bcount_part_opt(p0, p1)
#define __out_bcount_part_z(p0, p1)
#define __out_bcount_part_z_opt(p0, p1)
#define __out_bcount_z(p0)
#define __out_bcount_z_opt(p0)
#define __out_ecount(p0)
#define __out_ecount_full(p0)
#define __out_ecount_full_opt(p0)
#define __out_ecount_full_z(p0)
#define __out_ecount_full_z_opt(p0)
#define __out_ecount_nz(p0)
#define __out_ecount_nz_opt(p0)
#define __out_ecount_opt(p0)
#define __out_ecount_part(p0, p1)
#define __out_ecount_part_opt(p0, p1)
#define __out_ecount_part_z(p0, p1)
#define __out_ecount_part_z_opt(p0, p1)
#define __out_ecount_z(p0)
#define __out_ecount_z_opt(p0)
#define __out_nz
#define __out_nz_opt
#define __out_opt
#define __out_xcount(p0)
#define __out_z
#define __out_z_opt
#define __override
#define __post
#define __post_deref_except_maybenull
#define __post_except_maybenull
#define __postcond(p0)
#define __pre
#define __pre_deref_except_maybenull
#define __pre_except_maybenull
#define __precond(p0)
#define __readableTo(p0)
#define __readonly
#define __refparam
#define __reserved
#define __success(p0)
#define __typefix(p0)
#define __valid
#define __writableTo(p0)
#endif

#endif /* LIBETW_SAL_H */

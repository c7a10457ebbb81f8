# SPDX-License-Identifier: MIT
#
# CMake rules that run etw wpp before the compiler:
#
#   find_package(EtwWpp REQUIRED)
#   add_executable(tracesample tracesample.c main.c)
#   etw_wpp(tracesample
#           OPTIONS -scan:${CMAKE_CURRENT_SOURCE_DIR}/trace.h
#                   "-func:DoTraceLevelMessage(LEVEL,FLAGS,MSG,...)"
#           [TMFDIR dir])
#
# Each C or C++ source of the target gets a custom command making its
# .tmh in ${CMAKE_CURRENT_BINARY_DIR}/<target>_wpp (also the include
# directory the target gets) and its .tmf there or in TMFDIR; the source's
# object depends on it.  ETW_EXECUTABLE names the etw to run.

find_program(ETW_EXECUTABLE etw REQUIRED)

function(etw_wpp target)
	cmake_parse_arguments(PARSE_ARGV 1 WPP "" "TMFDIR" "OPTIONS")
	set(odir "${CMAKE_CURRENT_BINARY_DIR}/${target}_wpp")
	if(NOT WPP_TMFDIR)
		set(WPP_TMFDIR "${odir}")
	endif()
	get_target_property(srcs ${target} SOURCES)
	set(tmhs "")
	foreach(src IN LISTS srcs)
		if(src MATCHES "\\.(c|cc|cpp|cxx)$")
			get_filename_component(abs "${src}" ABSOLUTE)
			get_filename_component(name "${src}" NAME_WLE)
			set(tmh "${odir}/${name}.tmh")
			add_custom_command(OUTPUT "${tmh}"
				COMMAND "${CMAKE_COMMAND}" -E make_directory "${odir}" "${WPP_TMFDIR}"
				COMMAND "${ETW_EXECUTABLE}" wpp "-odir:${odir}" "-tmfdir:${WPP_TMFDIR}"
					${WPP_OPTIONS} "${abs}"
				DEPENDS "${abs}"
				COMMENT "etw wpp ${src}"
				VERBATIM)
			set_source_files_properties("${abs}" PROPERTIES OBJECT_DEPENDS "${tmh}")
			list(APPEND tmhs "${tmh}")
		endif()
	endforeach()
	target_sources(${target} PRIVATE ${tmhs})
	target_include_directories(${target} PRIVATE "${odir}")
endfunction()

# cosim.cmake (included by sim/systemc/CMakeLists.txt) - the co-simulation: rtl/src's dequantization
# unit (top module mx_dequant), Verilated with `verilator --sc`, instantiated next to MxsimAccel in
# one SystemC simulation (tb/tb_cosim.cpp).  rtl/ is another issue's code: it is read, never
# edited.  Skipped, with a message, when Verilator or the unit is missing, or when the RTL does not
# lint (so that an RTL in mid-edit does not break configuration).
#
# Two instances, parameters below (the testbench receives the same values as macros):
#   A: PROFILE 0 (ocp; microxcaling decodes alike), LANES 16, DEPTH 4, GROUP_BEATS 2 (G = 32):
#      the dequant unit of workloads/configs/small.ini (dequant.lanes = 16, depth_cycles = 4);
#   B: PROFILE 2 (mase-cuda), LANES 4, DEPTH 2, GROUP_BEATS 8 (G = 32).
set(_rtl_dir ${PROJECT_SOURCE_DIR}/rtl/src)
file(GLOB _rtl_srcs CONFIGURE_DEPENDS ${_rtl_dir}/*.v ${_rtl_dir}/*.sv)
if(NOT EXISTS ${_rtl_dir}/mx_dequant.v)
  message(STATUS "mxsim SystemC: rtl/src/mx_dequant.v not found; skipping the co-simulation")
  return()
endif()
find_package(verilator QUIET HINTS $ENV{VERILATOR_ROOT})
if(NOT verilator_FOUND)
  message(STATUS "mxsim SystemC: Verilator not found (Debian package verilator); skipping the co-simulation")
  return()
endif()
execute_process(COMMAND ${VERILATOR_BIN} --lint-only -Wno-fatal --top-module mx_dequant ${_rtl_srcs}
                RESULT_VARIABLE _lint_rc OUTPUT_VARIABLE _lint_out ERROR_VARIABLE _lint_out)
if(_lint_rc)
  message(STATUS "mxsim SystemC: rtl/src does not pass `verilator --lint-only`; skipping the co-simulation:\n${_lint_out}")
  return()
endif()

# Extra Verilator arguments for both units, e.g. +define+MXSIM_RTL_BUG_ZERO_SIGN to check that the
# co-simulation catches the RTL's injected bugs (the test must then fail).
set(MXSIM_SC_COSIM_VERILATOR_ARGS "" CACHE STRING "extra verilator arguments for the co-simulated RTL units")
set(MXSIM_COSIM_A -GPROFILE=0 -GLANES=16 -GDEPTH=4 -GGROUP_BEATS=2)
set(MXSIM_COSIM_B -GPROFILE=2 -GLANES=4 -GDEPTH=2 -GGROUP_BEATS=8)
add_library(mxsim_sc_rtl STATIC)  # Verilated code and runtime only: Verilator's flags, not ours
verilate(mxsim_sc_rtl SYSTEMC PREFIX Vdq_a TOP_MODULE mx_dequant SOURCES ${_rtl_srcs}
         VERILATOR_ARGS -Wno-fatal ${MXSIM_COSIM_A} ${MXSIM_SC_COSIM_VERILATOR_ARGS} OPT_FAST -O2)
verilate(mxsim_sc_rtl SYSTEMC PREFIX Vdq_b TOP_MODULE mx_dequant SOURCES ${_rtl_srcs}
         VERILATOR_ARGS -Wno-fatal ${MXSIM_COSIM_B} ${MXSIM_SC_COSIM_VERILATOR_ARGS} OPT_FAST -O2)
target_link_libraries(mxsim_sc_rtl PUBLIC PkgConfig::MXSIM_SYSTEMC Threads::Threads)

add_executable(mxsim_sc_cosim tb/tb_cosim.cpp)
target_include_directories(mxsim_sc_cosim SYSTEM PRIVATE ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd
                           ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/mxsim_sc_rtl.dir/Vdq_a.dir
                           ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/mxsim_sc_rtl.dir/Vdq_b.dir)
target_include_directories(mxsim_sc_cosim PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/tb)
string(REGEX REPLACE "-G([A-Z_]+)=" "DQ_A_\\1=" _defs_a "${MXSIM_COSIM_A}")
string(REGEX REPLACE "-G([A-Z_]+)=" "DQ_B_\\1=" _defs_b "${MXSIM_COSIM_B}")
target_compile_definitions(mxsim_sc_cosim PRIVATE VM_SC=1 VM_TRACE=0 VM_COVERAGE=0 ${_defs_a} ${_defs_b})
target_link_libraries(mxsim_sc_cosim PRIVATE mxsim_sc_rtl mxsim_systemc mxsim_sc_warnings ZLIB::ZLIB m)
message(STATUS "mxsim SystemC: co-simulation with rtl/src/mx_dequant.v (Verilator ${verilator_VERSION})")

if(MXSIM_BUILD_TESTS)
  # >= 100,000 groups (131,072), every scale byte x every mantissa code, then edge-code groups,
  # streamed cycle by cycle; 0 mismatches against mxsim_decode_bf16 and against MxsimAccel's
  # dequant op on the same groups, and the unit's cycle count against mxsim_time_op.
  add_test(NAME systemc_cosim_dequant COMMAND mxsim_sc_cosim
           --config ${PROJECT_SOURCE_DIR}/workloads/configs/small.ini --groups 131072)
  set_tests_properties(systemc_cosim_dequant PROPERTIES LABELS "systemc;rtl" TIMEOUT 600)
endif()

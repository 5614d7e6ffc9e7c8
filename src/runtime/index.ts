/**
 * The public API of the simulated Strata runtime: the only module apps import.
 *
 * Names follow Appendix A of the thesis in camelCase. Calls marked (op) take
 * simulated time or touch the network and are run with `yield*`:
 *
 *   Self, PartitionSize, logPartitionSize, PartitionMask, StrataVersion
 *                                          -> rt.self, rt.partitionSize, rt.logP, rt.partitionMask, rt.strataVersion
 *   SendLeftPollBoth (op)                  -> rt.sendLeftPollBoth(dest, handler, ...args)
 *   SendBothRLPollBoth / SendBothLRPollBoth / SendBothRLPollRight / SendBothLRPollRight (op)
 *                                          -> rt.sendBothRLPollBoth(...) etc.
 *   PollLeft, PollRight, PollBoth (op)     -> rt.pollLeft(), rt.pollRight(), rt.pollBoth()
 *   PollLeftTilEmpty, PollRightTilEmpty, PollBothTilEmpty (op)
 *                                          -> rt.pollLeftTilEmpty() etc.
 *   PollLeftThenBothTilEmpty, PollRightThenBothTilEmpty (op)
 *                                          -> rt.pollLeftThenBothTilEmpty() etc.
 *   StartBarrier, QueryBarrier, CompleteBarrier, Barrier (op)
 *                                          -> rt.startBarrier(), rt.queryBarrier(), rt.completeBarrier(), rt.barrier()
 *   CombineInt, StartCombineInt, QueryCombineInt, CompleteCombineInt (op)
 *                                          -> rt.combineInt(value, CombineOp.ScanAdd) etc.
 *   GlobalOR, StartGlobalOR, QueryGlobalOR, CompleteGlobalOR (op)
 *                                          -> rt.globalOR(notDone), rt.startGlobalOR(notDone), ...
 *   SetAsyncGlobalOR, GetAsyncGlobalOR (op) -> rt.setAsyncGlobalOR(notDone), rt.getAsyncGlobalOR()
 *   SetSegment, CurrentSegment, SegmentType -> rt.setSegment(SegmentType.ElementBoundary), rt.currentSegment()
 *   CombineVector, StartCombineVector, CompleteCombineVector (op)
 *                                          -> rt.combineVector(to, from, op, count) etc.
 *   Broadcast, QueryBroadcast, ReceiveBroadcast, BroadcastDouble, ReceiveBroadcastDouble,
 *   BroadcastVector, ReceiveBroadcastVector (op)
 *                                          -> rt.broadcast(word), rt.receiveBroadcast(), ...
 *   CompositeInt, CompositeUint, CompositeFloat, CompositeOp (op)
 *                                          -> rt.compositeInt(value, CompositeOp.Median) etc.
 *   CycleCount, ElapsedCycles, CurrentCycle, CurrentCycle64, CyclesToSeconds
 *                                          -> rt.cycleCount(), rt.elapsedCycles(start), ...
 *   StrataPortTable[n]                     -> rt.port(n) (base, count, handler, user1..user5)
 *   SendBlockXferPollBoth, SendBlockXferPollRight (op)
 *                                          -> rt.sendBlockXferPollBoth(proc, port, offset, buffer, size)
 *   SendXferBothRLPollBoth / SendXferBothLRPollBoth / SendXferBothRLPollRight / SendXferBothLRPollRight (op)
 *                                          -> rt.sendXferBothRLPollBoth(proc, portAndOffset, ...data) etc.
 *   StrataXferHeaderHandler, StrataXferPut1/2/3Handler
 *                                          -> strataXferHeaderHandler, strataXferPutHandler
 *   PortAndOffsetCons/Port/Offset          -> portAndOffsetCons, portAndOffsetPort, portAndOffsetOffset
 *   AsyncBlockXfer, ServiceAllTransfers, CompleteTransfer, GetABXproc/port/offset/buffer/remaining
 *                                          -> rt.asyncBlockXfer(...), rt.serviceAllTransfers(rounds) (op),
 *                                             rt.completeTransfer(id) (op), rt.getAbxProc(id), ...
 *   a handler's address in a message word  -> rt.handlerWord(fn), rt.handlerOf(word)
 *   Random, SetRandomSeed, TIME_BASED_SEED -> rt.random(), rt.setRandomSeed(seed), TIME_BASED_SEED
 *   StrataFail, assert, StrataExit         -> rt.strataFail(fmt, ...), rt.assert(cond, msg), rt.strataExit(code)
 *   ClearMemory                            -> rt.clearMemory(region, lengthBytes)
 *   ResetCurrentCycle (op)                 -> rt.resetCurrentCycle()
 *   SetState, RecordStates                 -> rt.setState(state), rt.recordStates(on)
 *   Qprintf, Qfprintf, EmptyPrintQ (op), StrataLog
 *                                          -> rt.qprintf(fmt, ...), rt.qfprintf('stderr', fmt, ...),
 *                                             rt.emptyPrintQ(), rt.strataLog(fmt, ...)
 *   StrataExit(0)                          -> returning from main
 *
 * Not provided, because they mean nothing in a simulation:
 *   StrataInit       the simulator initializes every node (random seed Self + 1, the
 *                    asynchronous global OR set, cycle counter at 0) before main runs
 *   InitTrace, OutputStateLog
 *                    a trace is requested with `sim --trace` and written as a stream,
 *                    so there is no trace to open on the nodes and no 2048-entry
 *                    buffer to empty
 *   StrataLogging, LogBarrier, LogBroadcast, LogCombine, LogQprintf
 *                    there is no separate debugging library: `sim --log` logs every
 *                    global operation and Qprintf, and observing never changes a run
 *   StrataQueue, StrataQueueLength
 *                    pndbx access to the print queue; `sim --log` records each Qprintf
 *
 * Extensions for simulation: rt.compute(cycles) and rt.computeOps({...}) charge local
 * work; rt.pollBothUntil(isDone) waits efficiently; rt.hopsTo(node) gives distances;
 * rt.maxArgWords is the platform's active-message argument limit.
 */
export { defineApp } from './app.ts';
export { AppRun, DEFAULT_RUN_LIMITS, runApp } from './run-app.ts';
export { checkApp, machineInfo } from './app-calls.ts';
export type { NodeSnapshot, RunConfig, RunLimits, RunSummary, Spread, StopReport } from './run-app.ts';
export { advanceToEnd, RunStopped, stopPoint } from './stoppable-run.ts';
export { runConfig, type RunOptions } from './run-config.ts';
export type {
  AppDefinition,
  BoolParam,
  EnumParam,
  FloatParam,
  IntParam,
  MachineInfo,
  Metrics,
  ParamSpecs,
  ParamValue,
  ParamValues,
  SetupContext,
  Verification,
  VerifyContext,
} from './app.ts';
export type { AbxCompletion, Handler, PortHandler, Runtime } from './runtime.ts';
export type { OpCounts } from './local-work.ts';
export { opCycles, TIME_BASED_SEED } from './local-work.ts';
export type { WordArray } from './collectives.ts';
// InputError: what an app's setup throws for input it drew that cannot run (bad input, exit 2; apps/patterns' random targets).
export { InputError, StrataFailure } from '../kernel/errors.ts';
export type { Op } from '../machine/node.ts';
export { CombineOp, SegmentType } from '../network/combine.ts';
export { CompositeOp } from './composite.ts';
export {
  portAndOffsetCons,
  portAndOffsetOffset,
  portAndOffsetPort,
  STRATA_MAX_XFER_OFFSET,
  STRATA_MIN_XFER_OFFSET,
  STRATA_NUM_PORTS,
  strataXferHeaderHandler,
  strataXferPutHandler,
  type StrataPort,
} from './ports.ts';
export type { BlockTransferOptions } from './block-transfer.ts';
export type { RandomStream } from '../kernel/random-stream.ts';
export { State } from './states.ts';

package experiments;

import ai.FastLog;
import ai.FastSigm;
import ai.FastTanh;
import ai.framework.AIPlayer;
import ai.framework.IBoard;
import ai.framework.IMove;
import ai.framework.MoveList;
import ai.mcts.MCTSOptions;
import ai.mcts.MCTSPlayer;
import alphabeta.AlphaBeta;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Random;

/**
 * mcts_arena's rate harness inside the paper engine (tpepels/mcts_gameframe at e8e21fd6, with
 * mcts_gameframe-e8e21fd6.patch applied): ONE self-play game of one player label at a fixed
 * time per move, searched in this thread (SimGame's way: parallel=false, no tree reuse), printing
 * one JSON line per move — the search's work (MCTS: simulations completed; αβ: the engine's node
 * count), the CPU time of this thread during the search, its wall time, the time the garbage
 * collectors spent meanwhile (gc_ms: their pauses stop the search), whether the search
 * stopped early (a win proven at the root) — and a last line with the game's end.
 *
 * Usage: java -cp BUILD experiments.ArenaRates --game breakthrough|kalah --label LABEL
 *        --timelimit MS --seed N --random-plies K
 * Kalah starts from a random board of 48 stones over the 12 pits (SimGame's kalah games, drawn
 * from the seeded generator); Breakthrough from the start position. The first K plies of either
 * are uniformly random moves (seeded), so that self-play of a deterministic player (αβ) still
 * gives distinct games.
 */
public class ArenaRates {

    /** Milliseconds the JVM's collectors have spent collecting (their pauses stop the search). */
    static long gcMillis() {
        long t = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
            t += Math.max(0, gc.getCollectionTime());
        return t;
    }

    public static void main(String[] args) {
        String game = null, label = null;
        int timeLimit = 1000, randomPlies = 0;
        long seed = 1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--game": game = args[++i]; break;
                case "--label": label = args[++i]; break;
                case "--timelimit": timeLimit = Integer.parseInt(args[++i]); break;
                case "--seed": seed = Long.parseLong(args[++i]); break;
                case "--random-plies": randomPlies = Integer.parseInt(args[++i]); break;
                default: throw new RuntimeException("Unknown option: " + args[i]);
            }
        }
        SimGame sim = new SimGame();
        sim.parseArgs(new String[]{"--game", game, "--timelimit", Integer.toString(timeLimit),
                                   "--seed", Long.toString(seed)});
        sim.loadPlayer(1, label);
        sim.loadPlayer(2, label);
        FastTanh.tanh(1.);
        FastSigm.sigm(1.);
        FastLog.log(1.);

        IBoard board;
        if (game.equals("kalah")) {
            int[] initb = new int[12];
            for (int i = 0; i < 48; i++)
                initb[(int) (MCTSOptions.r.nextDouble() * 12)]++;
            kalah.game.Board kb = new kalah.game.Board();
            kb.initialize(initb);
            board = kb;
        } else if (game.equals("breakthrough")) {
            board = new breakthrough.game.Board();
            board.initialize();
        } else {
            throw new RuntimeException("Unmeasured game: " + game);
        }

        Random openings = new Random(seed * 7919 + 17);
        for (int k = 0; k < randomPlies && board.checkWin() == IBoard.NONE_WIN; k++) {
            MoveList moves = board.getExpandMoves();
            IMove m = moves.get(openings.nextInt(moves.size()));
            board.doAIMove(m, board.getPlayerToMove());
        }

        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        int ply = 0;
        int[] searches = new int[3];
        while (board.checkWin() == IBoard.NONE_WIN) {
            int player = board.getPlayerToMove();
            AIPlayer ai = sim.player(player);
            System.gc();
            double nodesBefore = 0, depthBefore = 0;
            if (ai instanceof AlphaBeta) {
                AlphaBeta ab = (AlphaBeta) ai;
                nodesBefore = ab.totalnodes();
                depthBefore = searches[player] == 0 ? 0 : ab.averageDepth() * searches[player];
            }
            long g0 = gcMillis();
            long c0 = bean.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            ai.getMove(board.copy(), null, player, false, null);
            long wall = System.nanoTime() - w0;
            long cpu = bean.getCurrentThreadCpuTime() - c0;
            long gc = gcMillis() - g0;
            searches[player]++;
            IMove m = ai.getBestMove();
            long work;
            boolean early = false;
            String extra = "";
            if (ai instanceof MCTSPlayer) {
                MCTSPlayer mp = (MCTSPlayer) ai;
                work = mp.lastSimulations;
                early = mp.lastStoppedEarly;
            } else if (ai instanceof AlphaBeta) {
                AlphaBeta ab = (AlphaBeta) ai;
                work = Math.round(ab.totalnodes() - nodesBefore);
                extra = ", \"depth\": " + Math.round(ab.averageDepth() * searches[player] - depthBefore);
            } else {
                throw new RuntimeException("Unmeasured player kind: " + label);
            }
            System.out.println("{\"ply\": " + ply + ", \"player\": " + player + ", \"work\": " + work
                    + ", \"cpu_ns\": " + cpu + ", \"wall_ns\": " + wall + ", \"gc_ms\": " + gc
                    + ", \"early\": " + early
                    + extra + "}");
            board.doAIMove(m, player);
            ply++;
        }
        System.out.println("{\"end\": true, \"winner\": " + board.checkWin() + ", \"plies\": " + ply
                + ", \"random_plies\": " + randomPlies + "}");
    }
}

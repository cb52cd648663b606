import ai.FastLog;
import ai.mcts.MCTSOptions;
import ai.mcts.TreeNode;
import ai.framework.IBoard;
import ai.framework.IMove;
import ai.framework.MoveList;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.List;

/**
 * Root statistics of the authors' MCTS(bl') (mcts_s_h_efv1_pd20_np<N>) from given positions.
 * stdin: one line per position, "ID SEEDS MOVE MOVE ..." (arena notation, from the start);
 * args: sims npVisits (0 = no node priors) [nofix: solverFix off]. Runs the engine's own loop (MCTSPlayer.run's
 * fixed-simulation loop, sims + 1 simulations, stop at a proven win) once per seed and prints
 * one line per search: ID seed chosen | move visits mean ; ...
 */
public class RootProbe {
    public static void main(String[] args) throws Exception {
        int sims = Integer.parseInt(args[0]);
        int np = Integer.parseInt(args[1]);
        boolean fix = args.length < 3 || !args[2].equals("nofix");
        FastLog.log(1.);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.isEmpty()) continue;
            String[] w = line.split("\\s+");
            String id = w[0];
            int seeds = Integer.parseInt(w[1]);
            for (int seed = 1; seed <= seeds; seed++) {
                IBoard board = new breakthrough.game.Board();
                board.initialize();
                for (int i = 2; i < w.length; i++) {
                    IMove m = find(board, w[i]);
                    if (m == null) throw new RuntimeException("illegal " + w[i] + " in " + id);
                    board.doAIMove(m, board.getPlayerToMove());
                }
                MCTSOptions o = new MCTSOptions();
                o.debug = false;
                o.useHeuristics = false;
                o.solver = false;
                o.setGame("breakthrough");
                o.solver = true;            // s
                o.useHeuristics = true;     // h
                o.efVer = 1;                // efv1
                o.earlyEval = true;         // pd20
                o.pdepth = 20;
                if (np > 0) {
                    o.nodePriors = true;
                    o.nodePriorsVisits = np;
                }
                o.solverFix = fix;
                o.fixedSimulations = true;
                o.simulations = sims - 1;   // its loop runs limit + 1
                MCTSOptions.r.setSeed(seed);
                int me = board.getPlayerToMove();
                TreeNode root = new TreeNode(me, o);
                int done = 0;
                while (done <= o.simulations) {
                    done++;
                    if (root.MCTS(board, 0, root.player) == TreeNode.INF) break;
                }
                TreeNode best = root.getBestChild(board);
                StringBuilder sb = new StringBuilder();
                sb.append(id).append(' ').append(seed).append(' ').append(done).append(' ')
                  .append(format(best.getMove())).append(" |");
                List<TreeNode> ch = root.getChildren();
                for (TreeNode t : ch) {
                    sb.append(' ').append(format(t.getMove())).append(' ')
                      .append(t.stats.totalVisits()).append(' ')
                      .append(String.format("%.4f", t.stats.mean())).append(" ;");
                }
                System.out.println(sb);
            }
        }
    }

    static IMove find(IBoard board, String text) {
        MoveList moves = board.getExpandMoves();
        for (int i = 0; i < moves.size(); i++)
            if (format(moves.get(i)).equals(text))
                return moves.get(i);
        return null;
    }

    static String format(IMove m) {
        int[] v = m.getMove();
        return sq(v[0], v[1]) + (m.isProtected() ? "x" : "-") + sq(v[2], v[3]);
    }

    static String sq(int r, int c) {
        return "" + (char) ('a' + c) + (8 - r);
    }
}

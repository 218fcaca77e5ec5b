"""networkx: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import networkx as nx

G = nx.path_graph(4)
D = nx.DiGraph([(0, 1), (1, 2), (2, 0)])
W = nx.Graph()
W.add_edge('a', 'b', weight=-1)
W.add_edge('b', 'c', weight=2)
H = nx.Graph([(0, 1), (2, 3)])


# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    nx.shortest_path(G, 0, 99)

def error_2():
    nx.shortest_path(G, 99, 0)

def error_3():
    nx.shortest_path(H, 0, 3)

def error_4():
    nx.shortest_path(G, 0, 3, method='magic')

def error_5():
    nx.dijkstra_path(H, 0, 3)

def error_6():
    nx.bellman_ford_path(nx.DiGraph([(0, 1, {'weight': -1}), (1, 0, {'weight': -1})]), 0, 1)

def error_7():
    nx.topological_sort(D) and list(nx.topological_sort(D))

def error_8():
    nx.find_cycle(nx.path_graph(3))

def error_9():
    G.remove_node(42)

def error_10():
    G.remove_edge(0, 3)

def error_11():
    G.add_edge(None, 1)

def error_12():
    G.add_node(None)

def error_13():
    G.add_edges_from([(1, 2, 3, 4)])

def error_14():
    G.add_edges_from([(1,)])

def error_15():
    G.neighbors(42)

def error_16():
    G.edges[0, 3]

def error_17():
    G.nodes[42]

def error_18():
    G.degree(42) if False else nx.Graph().adj[5]

def error_19():
    nx.diameter(H)

def error_20():
    nx.eccentricity(nx.DiGraph([(0, 1)]))

def error_21():
    nx.eulerian_circuit(G).__next__()

def error_22():
    nx.is_connected(nx.Graph())

def error_23():
    nx.connected_components(D).__next__()

def error_24():
    nx.strongly_connected_components(G).__next__()

def error_25():
    nx.minimum_spanning_tree(D)

def error_26():
    nx.minimum_spanning_tree(G, algorithm='fancy')

def error_27():
    nx.relabel_nodes(G, {0: 1}, copy=False) and nx.convert_node_labels_to_integers(G, ordering='sideways')

def error_28():
    nx.complete_graph(-1) and nx.path_graph('x')

def error_29():
    nx.random_regular_graph(3, 5, seed=1)

def error_30():
    nx.gnm_random_graph(3, 10, seed='abc')

def error_31():
    nx.barabasi_albert_graph(3, 5, seed=1)

def error_32():
    nx.watts_strogatz_graph(5, 6, 0.1, seed=1)

def error_33():
    nx.bipartite.sets(nx.path_graph(3).__class__(nx.complete_graph(3)))

def error_34():
    nx.bipartite.sets(nx.Graph([(0, 1), (2, 3)]))

def error_35():
    nx.hits(nx.DiGraph())

def error_36():
    nx.to_numpy_array(G, nodelist=[0, 0])

def error_37():
    nx.to_numpy_array(G, nodelist=[0, 99])

def error_38():
    nx.from_dict_of_lists({0: 5})

def error_39():
    nx.Graph(5)

def error_40():
    nx.DiGraph(G).to_undirected().successors(0)

def error_41():
    nx.ancestors(G, 99)

def error_42():
    nx.descendants(D, 99)

def error_43():
    nx.dag_longest_path(D)

def error_44():
    nx.max_weight_matching(G, maxcardinality='x') and nx.maximal_matching(D)

def error_45():
    nx.has_path(G, 0, 99)

def error_46():
    nx.astar_path(G, 0, 99)

def error_47():
    nx.single_source_shortest_path_length(G, 99)

def error_48():
    nx.node_connectivity(G, 0)

def error_49():
    nx.algorithms.isomorphism.GraphMatcher(G, D)

def error_50():
    nx.union(G, G)

def error_51():
    nx.compose(G, D)

def error_52():
    nx.write_graphml(nx.Graph([(0, 1, {'w': object()})]), '/tmp/errdex-cases-home/x.graphml')

def error_53():
    nx.parse_gml('graph [ node [ id 0 ] node [ id 0 ] ]')

def error_54():
    nx.parse_gml('nonsense')

def error_55():
    nx.parse_edgelist(['1 2 {bad'])

def error_56():
    nx.parse_edgelist(['1 2 3'], data=[('w', float), ('x', float)])

def error_57():
    nx.set_node_attributes(G, 5) or nx.get_edge_attributes(G, 'w')[(0, 1)]

def error_58():
    nx.average_clustering(nx.Graph())

def error_59():
    nx.average_shortest_path_length(H)

def error_60():
    nx.average_shortest_path_length(nx.Graph())

def error_61():
    nx.draw(G)

"""transformers: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

from transformers import AutoConfig, BertConfig, GenerationConfig, PretrainedConfig
from transformers.utils import quantization_config as qc

# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    GenerationConfig(cache_implementation='flash')

def error_2():
    GenerationConfig(cache_implementation='statc')

def error_3():
    GenerationConfig(max_new_tokens=0)

def error_4():
    GenerationConfig(max_new_tokens=-5)

def error_5():
    GenerationConfig(early_stopping='sometimes')

def error_6():
    GenerationConfig(assistant_ensemble_weight=1.5)

def error_7():
    GenerationConfig(compile_config={'fullgraph': True})

def error_8():
    GenerationConfig(num_return_sequences=3)

def error_9():
    GenerationConfig(num_beams=2, num_return_sequences=4)

def error_10():
    GenerationConfig(streamer=object())

def error_11():
    GenerationConfig(temperature=0.3).validate(strict=True)

def error_12():
    GenerationConfig(num_beams=1, length_penalty=2.0, use_cache=False, cache_implementation='static').validate(strict=True)  # noqa: E501

def error_13():
    GenerationConfig(watermarking_config={'seeding_scheme': 'righthash'})

def error_14():
    GenerationConfig(watermarking_config={'greenlist_ratio': 1.5})

def error_15():
    GenerationConfig(watermarking_config={'context_width': 0})

def error_16():
    GenerationConfig.from_pretrained('/nonexistent/model-dir')

def error_17():
    qc.BitsAndBytesConfig(load_in_4bit=True, load_in_8bit=True)

def error_18():
    qc.BitsAndBytesConfig(llm_int8_threshold='high')

def error_19():
    qc.BitsAndBytesConfig(llm_int8_skip_modules='lm_head')

def error_20():
    qc.BitsAndBytesConfig(bnb_4bit_quant_type=4)

def error_21():
    qc.BitsAndBytesConfig(load_in_8bit='yes')

def error_22():
    qc.GPTQConfig(bits=5, dataset='c4')

def error_23():
    qc.GPTQConfig(bits=4, group_size=0)

def error_24():
    qc.GPTQConfig(bits=4, damp_percent=1.5)

def error_25():
    qc.AwqConfig(format='turbo')

def error_26():
    qc.HqqConfig(axis=2)

def error_27():
    qc.QuantoConfig(weights='int3')

def error_28():
    qc.QuantoConfig(weights='int8', activations='int4')

def error_29():
    qc.EetqConfig(weights='int4')

def error_30():
    qc.HiggsConfig(bits=5)

def error_31():
    qc.HiggsConfig(bits=4, p=3)

def error_32():
    qc.BitNetQuantConfig(linear_class='dense')

def error_33():
    qc.BitNetQuantConfig(quantization_mode='hybrid')

def error_34():
    qc.FineGrainedFP8Config(weight_block_size=(128, 0))

def error_35():
    qc.FineGrainedFP8Config(scale_fmt='int8')

def error_36():
    qc.SpQRConfig(bits=4)

def error_37():
    qc.MetalConfig(bits=3)

def error_38():
    qc.AqlmConfig(in_group_size='8')

def error_39():
    qc.SinqConfig(method='fast')

def error_40():
    BertConfig().save_pretrained(__file__ if False else '/etc/hostname')

def error_41():
    PretrainedConfig().update_from_string('nonexistent_key=3')

def error_42():
    BertConfig().update_from_string('is_decoder=maybe')

def error_43():
    AutoConfig.for_model('no-such-model-type')

"""botocore: the cases of benchmarks/make_cases.py (this file's format: benchmarks/cases/README.md)."""
# The case code is recorded verbatim in the corpus, so it is never reformatted; it calls the library wrongly
# on purpose, so it is not type-checked.
# fmt: off
# mypy: ignore-errors

import botocore.session
from botocore.config import Config
from botocore.stub import Stubber

session = botocore.session.get_session()
session.set_credentials('AKIDEXAMPLE', 'secret')
s3 = session.create_client('s3', region_name='us-east-1')
ddb = session.create_client('dynamodb', region_name='us-east-1')
sqs = session.create_client('sqs', region_name='us-east-1')
ec2 = session.create_client('ec2', region_name='us-east-1')
def stubbed():
    client = session.create_client('s3', region_name='us-east-1')
    return client, Stubber(client)


# The cases: each function's body runs after the setup above, in a fresh namespace, and must raise (error_*) or
# warn (warning_*).

def error_1():
    s3.get_object(Bucket='b')

def error_2():
    s3.get_object(Bucket='b', Key=5)

def error_3():
    s3.put_object(Bucket='b', Key='k', Body=3.5)

def error_4():
    s3.list_objects_v2(Bucket='b', MaxKeys='ten')

def error_5():
    s3.get_object(Bucket='b', Key='k', Nonsense=1)

def error_6():
    s3.get_object(Bucket='bad bucket name!', Key='k')

def error_7():
    s3.get_object(Bucket='arn:aws:s3:::nope', Key='k')

def error_8():
    s3.head_object(Bucket='', Key='k')

def error_9():
    ddb.put_item(TableName='t', Item={'a': {'Q': '1'}})

def error_10():
    ddb.put_item(TableName='t', Item=['a'])

def error_11():
    ec2.describe_instances(MaxResults=1.5)

def error_12():
    ec2.run_instances(ImageId='ami-1', MinCount=1)

def error_13():
    session.create_client('nosuchservice', region_name='us-east-1')

def error_14():
    session.create_client('s3', region_name='us east 1')

def error_15():
    session.create_client('s3', region_name='us-east-1', endpoint_url='not a url')

def error_16():
    session.create_client('sqs')

def error_17():
    session.create_client('s3', region_name='us-east-1', config=Config(retries={'mode': 'yolo'}))

def error_18():
    session.create_client('s3', region_name='us-east-1', config=Config(retries={'max_attempts': 'x'}))

def error_19():
    session.create_client('s3', region_name='us-east-1', config=Config(s3={'addressing_style': 'sideways'}))

def error_20():
    Config(nonsense=1)

def error_21():
    Config(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26)

def error_22():
    Config(connect_timeout=1, proxies_config={'proxy_use_forwarding_for_https': 1}, retries={'total_max_attempts': 0})

def error_23():
    s3.get_paginator('get_object')

def error_24():
    s3.get_waiter('bucket_vanished')

def error_25():
    s3.generate_presigned_url('no_such_method', Params={})

def error_26():
    s3.nonexistent_operation()

def error_27():
    session.get_config_variable('region') or session.get_scoped_config() and session.set_config_variable('x', 1) or botocore.session.Session(profile='missing-profile').get_scoped_config()  # noqa: E501

def error_28():
    client, stub = stubbed()
    stub.activate()
    client.list_buckets()

def error_29():
    client, stub = stubbed()
    stub.add_response('list_buckets', {'Buckets': 'nope'})

def error_30():
    client, stub = stubbed()
    stub.add_response('list_buckets', {})
    stub.activate()
    client.head_bucket(Bucket='b')

def error_31():
    client, stub = stubbed()
    stub.add_response('head_bucket', {}, expected_params={'Bucket': 'a'})
    stub.activate()
    client.head_bucket(Bucket='b')

def error_32():
    client, stub = stubbed()
    stub.add_client_error('list_buckets', 'NoSuchThing', 'It is gone', 404)
    stub.activate()
    client.list_buckets()

def error_33():
    client, stub = stubbed()
    stub.add_response('nope_op', {})

def error_34():
    client, stub = stubbed()
    stub.add_response('list_buckets', {})
    stub.assert_no_pending_responses()

def error_35():
    botocore.utils.parse_timestamp('not-a-time')

def error_36():
    botocore.utils.validate_jmespath_for_set('a.b[0]')

def error_37():
    botocore.utils.ArnParser().parse_arn('arn:aws:s3')

def error_38():
    botocore.utils.check_dns_name('x') or botocore.utils.validate_region_name('bad region!')

def error_39():
    botocore.utils.percent_encode_sequence(5)

def error_40():
    botocore.utils.is_valid_endpoint_url('x') or botocore.endpoint_provider.RuleSetStandardLibary({}).parse_url(1)
